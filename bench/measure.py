#!/usr/bin/env python3
"""Times commands on inputs: wall time and peak RSS of each run, with the
commands of one input alternated run by run so that a change in the
machine's load hits all of them alike. The peak RSS is GNU time's %M
(/usr/bin/time, `apt-get install time`): a child forked from Python would
count Python's own memory in its peak.

    measure.py RUNS HLOIDX INPUT...

For each INPUT (a file, or several files joined with '+' given to one
hloidx run) runs `hloidx --check --jobs=1` (one thread, as --all runs) and
`hloidx --all` RUNS times each and
prints one Markdown table row: input size, best and median wall time of
both, the --all/--check ratio of the medians and of the best times, the
peak RSS of both and the ratio of --all's to the input size."""
import os
import statistics
import sys
import time


GNU_TIME = "/usr/bin/time"


def run(cmd, rss_file):
    devnull = os.open(os.devnull, os.O_WRONLY)
    argv = [GNU_TIME, "-f", "%M", "-o", rss_file] + cmd
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, _ = os.wait4(pid, 0)
    t1 = time.perf_counter()
    os.close(devnull)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("%s: exit status %d" % (" ".join(cmd), code))
    with open(rss_file) as f:
        rss = int(f.read().split()[-1]) * 1024
    return t1 - t0, rss


def main():
    runs, hloidx, inputs = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    if not os.access(GNU_TIME, os.X_OK):
        sys.exit("measure.py needs GNU time at %s (apt-get install time)" % GNU_TIME)
    rss_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), "hloidx_bench_rss.%d" % os.getpid())
    print("| input | size | `--check` best / median | `--all` best / median | ratio (median, best) | "
          "peak RSS `--check` / `--all` | `--all` RSS / size |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for spec in inputs:
        files = spec.split("+")
        size = sum(os.path.getsize(f) for f in files)
        res = {"--check": [], "--all": []}
        for _ in range(runs):
            for mode in res:
                args = [mode, "--jobs=1"] if mode == "--check" else [mode]
                res[mode].append(run([hloidx] + args + files, rss_file))
        wall = {m: [r[0] for r in v] for m, v in res.items()}
        rss = max(r[1] for r in res["--all"])
        rss_check = max(r[1] for r in res["--check"])
        name = os.path.basename(files[0]) if len(files) == 1 else "%d files" % len(files)
        med = {m: statistics.median(w) for m, w in wall.items()}
        best = {m: min(w) for m, w in wall.items()}
        print("| %s | %.2f MB | %.3f / %.3f s | %.3f / %.3f s | %.2fx, %.2fx | %.1f / %.1f MB | %.1fx |" % (
            name, size / 1e6, best["--check"], med["--check"], best["--all"], med["--all"],
            med["--all"] / med["--check"], best["--all"] / best["--check"], rss_check / 1e6, rss / 1e6,
            rss / size))
        sys.stdout.flush()
    if os.path.exists(rss_file):
        os.remove(rss_file)


if __name__ == "__main__":
    main()
