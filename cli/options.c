#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HLOIDX_VERSION
#define HLOIDX_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: hloidx [OPTIONS] [FILE...]        (no FILE or '-': standard input)\n"
    "\n"
    "Prints the indexing maps of HLO instructions in XLA's text format.\n"
    "\n"
    "Modes:\n"
    "  (default)           indexing maps of the ENTRY root (or --instr, or --all)\n"
    "  --check             parse and verify only; prints nothing when valid\n"
    "  --jobs=N            --check: threads; several files are checked side by\n"
    "                      side, and a file of several modules (at least 2 MB)\n"
    "                      in spans of modules; output and errors are the same\n"
    "                      as with N = 1; default: one per processor, at most 16\n"
    "  --map               read indexing maps (XLA text, separated by blank lines),\n"
    "                      simplify each as XLA's IndexingMap::Simplify() does\n"
    "                      (unused symbols are kept) and print them\n"
    "  --layout            physical layout report of the result and operands of an\n"
    "                      instruction (tiled shape, memory space, sizes, padding,\n"
    "                      offset maps, shape:stride); with --all: every\n"
    "                      instruction's result, then bytes per memory space and\n"
    "                      the most padded values\n"
    "\n"
    "Analysis options:\n"
    "  --instr=NAME        instruction to analyze ('%' optional); default: ENTRY ROOT\n"
    "  --all               every fusion and every other instruction with operands\n"
    "                      (not tuple, get-tuple-element, parameter) of ENTRY and of\n"
    "                      the computations it reaches through control flow\n"
    "                      (fused and to_apply computations are not walked)\n"
    "  --direction=DIR     out2in | in2out | both (default: both)\n"
    "  --output=N          out2in: result index of a tuple-shaped instruction\n"
    "  --operand=N         in2out: operand to map (with --all: the instructions\n"
    "                      without that output / operand have no such block)\n"
    "  --physical[=KIND]   KIND = major (default: minor_to_major permutations,\n"
    "                      as XLA's use_physical_layout) or tiled (maps between\n"
    "                      tiled physical coordinates, tiles and padding included)\n"
    "  --format=FMT        text (default) | json (one document for the whole run)\n"
    "                      | mlir (each map as #xla.indexing_map<\"...\">)\n"
    "  --summary           instead of the maps, one line per operand: access pattern\n"
    "                      (identity, permutation, broadcast, reduction,\n"
    "                      strided/sliced, reshaped, gathered/dynamic, padded,\n"
    "                      unknown), utilization (distinct elements read /\n"
    "                      elements), read amplification (reads / distinct\n"
    "                      elements), with --physical coalescing; exact or\n"
    "                      marked as an estimate\n"
    "  --verify            instead of the maps, check them against the ops'\n"
    "                      definitions by enumeration (domains of at most 65536\n"
    "                      points; larger ones on 1024 pseudo-random points,\n"
    "                      reported as sampled with the seed; runtime variables\n"
    "                      bound through their descriptions): one line per\n"
    "                      block, then a tally; exit 3 on a mismatch\n"
    "  --verify-seed=N     seed of --verify's samples and runtime values (default 0)\n"
    "  --computation=NAME  the computation NAME as if it were the body of a fusion:\n"
    "                      maps from its root (or root tuple elements) to its\n"
    "                      parameters, composed through its instructions (a fused\n"
    "                      computation cut out of a dump, a chain of unfused ops)\n"
    "  --grouped           instead of out2in and in2out, XLA's grouped indexing of a\n"
    "                      fusion (or --computation): for each output, the maps from\n"
    "                      it to every instruction inside that it reads, parameters\n"
    "                      included (with --all: every fusion)\n"
    "  --xla-compat        exactly what XLA's indexing analysis prints, its unknown\n"
    "                      maps and its known mistakes included (default: hloidx's\n"
    "                      semantics, which go further where XLA gives up and are\n"
    "                      correct where XLA is not; see README)\n"
    "\n"
    "Output (default mode): XLA's text for ComputeOutputToInputIndexing (one\n"
    "'operand id = K' block per operand) and ComputeInputToOutputIndexing (one\n"
    "block per result), one map entry per line group; several maps of one\n"
    "operand are sorted by their one-line text. Unless --direction=out2in\n"
    "--output=N or --direction=in2out --operand=N selects a single block, each\n"
    "block is preceded by a header line\n"
    "    # NAME (out2in, output N)        # NAME (in2out, operand N)\n"
    "(', physical' / ', tiled' is added under --physical; an instruction without\n"
    "operands prints '# NAME (out2in, output 0): no operands' and '# NAME\n"
    "(in2out): no operands'). Each module of a multi-module run, and every module\n"
    "under --all, starts with '## module NAME (FILE)'; under --all each computation\n"
    "with analyzed instructions starts with '## computation NAME'. A block the\n"
    "analysis cannot compute (e.g. under --xla-compat a gather XLA rejects) gets a\n"
    "'# NAME (...): not analyzed: WHY' header and 'unknown indexing' entries, and\n"
    "the other blocks still come; the message is an error on stderr (exit status\n"
    "1), under --all a warning that does not change the exit status.\n"
    "\n"
    "  --help              this text\n"
    "  --version           version\n"
    "\n"
    "Exit status: 0 success, 1 input error, 2 usage error, 3 internal error.\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("hloidx: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'hloidx --help' for more information.\n", stderr);
  return 2;
}

/* Non-negative decimal integer; -1 on anything else. */
static long parse_index(const char *s) {
  if (!s || !*s) return -1;
  errno = 0;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || errno || v < 0 || s[0] == '-' || s[0] == '+') return -1;
  return v;
}

enum {
  OPT_CHECK = 256, OPT_MAP, OPT_LAYOUT, OPT_INSTR, OPT_ALL, OPT_DIRECTION, OPT_OUTPUT,
  OPT_OPERAND, OPT_PHYSICAL, OPT_FORMAT, OPT_SUMMARY, OPT_VERIFY, OPT_JOBS, OPT_HELP, OPT_VERSION,
  OPT_XLA_COMPAT, OPT_VERIFY_SEED, OPT_COMPUTATION, OPT_GROUPED,
};

int options_parse(int argc, char **argv, hloidx_options *o) {
  static const struct option longopts[] = {
      {"check", no_argument, NULL, OPT_CHECK},
      {"map", no_argument, NULL, OPT_MAP},
      {"layout", no_argument, NULL, OPT_LAYOUT},
      {"instr", required_argument, NULL, OPT_INSTR},
      {"all", no_argument, NULL, OPT_ALL},
      {"direction", required_argument, NULL, OPT_DIRECTION},
      {"output", required_argument, NULL, OPT_OUTPUT},
      {"operand", required_argument, NULL, OPT_OPERAND},
      {"physical", optional_argument, NULL, OPT_PHYSICAL},
      {"format", required_argument, NULL, OPT_FORMAT},
      {"summary", no_argument, NULL, OPT_SUMMARY},
      {"verify", no_argument, NULL, OPT_VERIFY},
      {"verify-seed", required_argument, NULL, OPT_VERIFY_SEED},
      {"jobs", required_argument, NULL, OPT_JOBS},
      {"xla-compat", no_argument, NULL, OPT_XLA_COMPAT},
      {"computation", required_argument, NULL, OPT_COMPUTATION},
      {"grouped", no_argument, NULL, OPT_GROUPED},
      {"help", no_argument, NULL, OPT_HELP},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0},
  };
  memset(o, 0, sizeof *o);
  o->output = -1;
  o->operand = -1;
  int modes = 0;
  opterr = 0;
  optind = 1;
  for (;;) {
    int c = getopt_long(argc, argv, "", longopts, NULL);
    if (c == -1) break;
    switch (c) {
    case OPT_CHECK: o->mode = MODE_CHECK; modes++; break;
    case OPT_MAP: o->mode = MODE_MAP; modes++; break;
    case OPT_LAYOUT: o->mode = MODE_LAYOUT; modes++; break;
    case OPT_INSTR:
      o->instr = optarg[0] == '%' ? optarg + 1 : optarg;
      if (!o->instr[0]) return usage_error("--instr needs an instruction name%s", "");
      break;
    case OPT_ALL: o->all = true; break;
    case OPT_DIRECTION:
      if (!strcmp(optarg, "out2in")) o->direction = DIR_OUT2IN;
      else if (!strcmp(optarg, "in2out")) o->direction = DIR_IN2OUT;
      else if (!strcmp(optarg, "both")) o->direction = DIR_BOTH;
      else return usage_error("--direction must be out2in, in2out or both, not '%s'", optarg);
      break;
    case OPT_OUTPUT:
      if ((o->output = parse_index(optarg)) < 0)
        return usage_error("--output needs a non-negative integer, not '%s'", optarg);
      break;
    case OPT_OPERAND:
      if ((o->operand = parse_index(optarg)) < 0)
        return usage_error("--operand needs a non-negative integer, not '%s'", optarg);
      break;
    case OPT_PHYSICAL:
      if (!optarg || !strcmp(optarg, "major")) o->physical = PHYS_MAJOR;
      else if (!strcmp(optarg, "tiled")) o->physical = PHYS_TILED;
      else return usage_error("--physical takes 'major' or 'tiled', not '%s'", optarg);
      break;
    case OPT_FORMAT:
      if (!strcmp(optarg, "text")) o->format = FMT_TEXT;
      else if (!strcmp(optarg, "json")) o->format = FMT_JSON;
      else if (!strcmp(optarg, "mlir")) o->format = FMT_MLIR;
      else return usage_error("--format must be text, json or mlir, not '%s'", optarg);
      break;
    case OPT_SUMMARY: o->summary = true; break;
    case OPT_VERIFY: o->verify = true; break;
    case OPT_XLA_COMPAT: o->xla_compat = true; break;
    case OPT_VERIFY_SEED: {
      long v = parse_index(optarg);
      if (v < 0) return usage_error("--verify-seed needs a non-negative integer, not '%s'", optarg);
      o->verify_seed = (unsigned long)v;
      break;
    }
    case OPT_COMPUTATION:
      o->computation = optarg[0] == '%' ? optarg + 1 : optarg;
      if (!o->computation[0]) return usage_error("--computation needs a computation name%s", "");
      break;
    case OPT_GROUPED: o->grouped = true; break;
    case OPT_JOBS: {
      long j = parse_index(optarg);
      if (j < 1 || j > 256) return usage_error("--jobs needs an integer from 1 to 256, not '%s'", optarg);
      o->jobs = (int)j;
      break;
    }
    case OPT_HELP: fputs(usage_text, stdout); return 0;
    case OPT_VERSION: printf("hloidx %s\n", HLOIDX_VERSION); return 0;
    case ':':
      return usage_error("option '%s' needs an argument", argv[optind - 1]);
    default:
      return usage_error("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (modes > 1) return usage_error("--check, --map and --layout are exclusive%s", "");
  if (o->instr && o->all) return usage_error("--instr and --all are exclusive%s", "");
  if (o->computation && (o->instr || o->all))
    return usage_error("--computation analyses one computation (no --instr or --all)%s", "");
  o->nfiles = argc - optind;
  o->files = argv + optind;
  return -1;
}
