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
    "  --shape-stride      read layouts, one per line: shape:stride ((2,4):(12,1),\n"
    "                      ((4,2),(4,3)):((4,16),(1,32)), _N accepted), XLA shapes\n"
    "                      (f32[3,5]{1,0:T(2,2)}), Ascend fractals zN|nZ|zZ|nN(TYPE,\n"
    "                      ROWS, COLS[, C0_BLOCKS]) and CuTe's algebra:\n"
    "                      coalesce(L), composition(A, B), complement(L, M),\n"
    "                      logical_divide(A, B), logical_product(A, B),\n"
    "                      make_layout_tile(L, (R, C)); report size, cosize,\n"
    "                      injectivity, offset and inverse maps and the XLA layout\n"
    "                      giving the same offsets (see README)\n"
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
    "                      points): one line per block, then a tally; exit 3 on a\n"
    "                      mismatch\n"
    "  --xla-compat        exactly what XLA's indexing analysis prints, its unknown\n"
    "                      maps and its known mistakes included (default: hloidx's\n"
    "                      semantics, which go further where XLA gives up and are\n"
    "                      correct where XLA is not; see README)\n"
    "\n"
    "Map operations (--map; applied in this order, then the map is printed):\n"
    "  --compose           compose the maps of each group, in order: each map's\n"
    "                      results feed the next one's dimensions (XLA's\n"
    "                      ComposeIndexingMaps(first, second)); a line '// -----'\n"
    "                      ends a group\n"
    "  --submap=I,J,...    keep results I, J, ... (XLA's GetSubMap)\n"
    "  --symbols-to-dims   range, then runtime variables become dimensions\n"
    "  (simplification)    XLA's Simplify(); --no-simplify skips it\n"
    "  --remove-unused=K   symbols | dims | vars: drop unused variables and the\n"
    "                      constraints only they appear in\n"
    "  --eval=POINT        (repeatable) values of every variable in order, or\n"
    "                      NAME=VALUE pairs: the results and whether the point\n"
    "                      is in the domain; dimensions only: the set of results\n"
    "                      over the symbols' values\n"
    "  --ranges            range of each result: XLA's range evaluation, and the\n"
    "                      exact range when the domain has at most 2^20 points\n"
    "  --format=mlir       print maps as #xla.indexing_map<\"...\"> (also read)\n"
    "Variable names are kept as written ((th_x, bl_x) prints back so); queries\n"
    "print as '// ' lines after the map, so the output reads back as maps.\n"
    "\n"
    "Layout queries (--layout: every array reported; --shape-stride: each layout):\n"
    "  --at=COORD          (repeatable) offset of a coordinate: (i,j), a nested\n"
    "                      ((i0,i1),j) or a 1-D index\n"
    "  --offset=N          (repeatable) the coordinates stored at offset N\n"
    "  --grid              table of the offset of each coordinate of a 2-D layout\n"
    "  --kernel-layout=L   --layout: does shape:stride layout L give the offsets\n"
    "                      of the instruction's result (or of --operand=K)?\n"
    "                      'equal', or an element where they differ\n"
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
    "with analyzed instructions starts with '## computation NAME'. Under --all an\n"
    "instruction the analysis cannot handle (e.g. a gather XLA's analysis rejects)\n"
    "gets a warning on stderr, a '# NAME (...): not analyzed: WHY' header and\n"
    "'unknown indexing' entries; the exit status is not changed by it.\n"
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
  OPT_XLA_COMPAT, OPT_SHAPE_STRIDE, OPT_COMPOSE, OPT_SUBMAP, OPT_SYMS_TO_DIMS, OPT_NO_SIMPLIFY,
  OPT_REMOVE_UNUSED, OPT_EVAL, OPT_RANGES, OPT_AT, OPT_OFFSET, OPT_GRID, OPT_KERNEL_LAYOUT,
};

/* Appends a repeatable option's value; false when there are too many. */
static bool push_point(const char **list, int *n, const char *v) {
  if (*n == OPT_MAX_POINTS) return false;
  list[(*n)++] = v;
  return true;
}

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
      {"jobs", required_argument, NULL, OPT_JOBS},
      {"xla-compat", no_argument, NULL, OPT_XLA_COMPAT},
      {"shape-stride", no_argument, NULL, OPT_SHAPE_STRIDE},
      {"compose", no_argument, NULL, OPT_COMPOSE},
      {"submap", required_argument, NULL, OPT_SUBMAP},
      {"symbols-to-dims", no_argument, NULL, OPT_SYMS_TO_DIMS},
      {"no-simplify", no_argument, NULL, OPT_NO_SIMPLIFY},
      {"remove-unused", required_argument, NULL, OPT_REMOVE_UNUSED},
      {"eval", required_argument, NULL, OPT_EVAL},
      {"ranges", no_argument, NULL, OPT_RANGES},
      {"at", required_argument, NULL, OPT_AT},
      {"offset", required_argument, NULL, OPT_OFFSET},
      {"grid", no_argument, NULL, OPT_GRID},
      {"kernel-layout", required_argument, NULL, OPT_KERNEL_LAYOUT},
      {"help", no_argument, NULL, OPT_HELP},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0},
  };
  memset(o, 0, sizeof *o);
  o->output = -1;
  o->operand = -1;
  int modes = 0, mapops = 0, layoutqs = 0;
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
    case OPT_SHAPE_STRIDE: o->mode = MODE_SHAPE_STRIDE; modes++; break;
    case OPT_COMPOSE: o->mapop.compose = true; mapops++; break;
    case OPT_SUBMAP: o->mapop.submap = optarg; mapops++; break;
    case OPT_SYMS_TO_DIMS: o->mapop.symbols_to_dims = true; mapops++; break;
    case OPT_NO_SIMPLIFY: o->mapop.no_simplify = true; mapops++; break;
    case OPT_RANGES: o->mapop.ranges = true; mapops++; break;
    case OPT_REMOVE_UNUSED:
      /* the values of analysis/map_ops.h's MO_UNUSED_* */
      if (!strcmp(optarg, "symbols")) o->mapop.remove_unused = 1;
      else if (!strcmp(optarg, "dims")) o->mapop.remove_unused = 2;
      else if (!strcmp(optarg, "vars")) o->mapop.remove_unused = 3;
      else return usage_error("--remove-unused takes symbols, dims or vars, not '%s'", optarg);
      mapops++;
      break;
    case OPT_EVAL:
      if (!push_point(o->mapop.eval, &o->mapop.neval, optarg)) return usage_error("too many --eval options%s", "");
      mapops++;
      break;
    case OPT_AT:
      if (!push_point(o->lq.at, &o->lq.nat, optarg)) return usage_error("too many --at options%s", "");
      layoutqs++;
      break;
    case OPT_OFFSET:
      if (!push_point(o->lq.offset, &o->lq.noffset, optarg)) return usage_error("too many --offset options%s", "");
      layoutqs++;
      break;
    case OPT_GRID: o->lq.grid = true; layoutqs++; break;
    case OPT_KERNEL_LAYOUT: o->lq.kernel = optarg; layoutqs++; break;
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
  if (modes > 1) return usage_error("--check, --map, --layout and --shape-stride are exclusive%s", "");
  if (mapops && o->mode != MODE_MAP)
    return usage_error("--compose, --submap, --symbols-to-dims, --no-simplify, --remove-unused, --eval and --ranges "
                       "need --map%s", "");
  if (layoutqs && o->mode != MODE_LAYOUT && o->mode != MODE_SHAPE_STRIDE)
    return usage_error("--at, --offset, --grid and --kernel-layout need --layout or --shape-stride%s", "");
  if (o->lq.kernel && o->mode != MODE_LAYOUT) return usage_error("--kernel-layout needs --layout%s", "");
  if (o->lq.kernel && o->all) return usage_error("--kernel-layout compares one instruction: not with --all%s", "");
  if (o->instr && o->all) return usage_error("--instr and --all are exclusive%s", "");
  o->nfiles = argc - optind;
  o->files = argv + optind;
  return -1;
}
