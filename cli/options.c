/* Command-line parsing. Long options are matched by their whole name (no
 * abbreviations, so that a new option never changes what an old command
 * line means); a misspelt one gets a "did you mean". Every option belongs to
 * the modes that read it: given to another mode it is a usage error, not
 * silently ignored. */
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hlo_ir.h"
#include "layout_query.h"
#include "../parser/base/oom.h"
#include "output.h"
#include "version.h" /* generated at build time: HLOIDX_VERSION, HLOIDX_COMMIT */

static const char usage_text[] =
    "usage: hloidx [OPTIONS] [FILE|DIR...]    (no FILE or '-': standard input)\n"
    "       hloidx --compare EXPECTED [OPTIONS] [FILE...]\n"
    "\n"
    "Prints the indexing maps of HLO instructions in XLA's text format.\n"
    "\n"
    "Modes:\n"
    "  (default)           indexing maps of the ENTRY root, of the instructions\n"
    "                      the selection options pick, or of every one (--all)\n"
    "  --list              one line per instruction, tab-separated: NAME, OPCODE,\n"
    "                      SHAPE, COMPUTATION, FILE:LINE; every instruction of\n"
    "                      every computation, or those the selection picks\n"
    "  --check             parse and verify only; prints nothing when valid;\n"
    "                      every failing file is reported\n"
    "  --jobs=N            --check: threads; several files are checked side by\n"
    "                      side, and a file of several modules (at least 2 MB)\n"
    "                      in spans of modules; output and errors are the same\n"
    "                      as with N = 1; default: one per processor, at most 16\n"
    "  --map               read indexing maps (XLA text, separated by blank lines),\n"
    "                      simplify each as XLA's IndexingMap::Simplify() does\n"
    "                      (unused symbols are kept) and print them\n"
    "  --symbolic-tile     XLA's symbolic tile of the out2in map of each operand\n"
    "                      of the instructions the selection picks (--output and\n"
    "                      --operand narrow it; both on one instruction: the\n"
    "                      first map of that operand alone); with --map, of each\n"
    "                      map of the input. 'no symbolic tile (WHY)', and exit 2\n"
    "                      for that single block or a --map input\n"
    "  --tiles             the operand tiles of one tiling of the instructions the\n"
    "                      selection picks (with --all: every fusion): offsets per\n"
    "                      tile index, sizes, strides, tile count, constraints,\n"
    "                      bytes per tile and over all tiles (logical and in\n"
    "                      tiled-layout tiles), reads per element; --format=json:\n"
    "                      one JSON document; --verify: check each tile's box\n"
    "                      against the map by enumeration instead (exit 3 on a\n"
    "                      mismatch)\n"
    "  --tile-sizes=LIST   --tiles: the output tile sizes, e.g. 8,128 (default: the\n"
    "                      fusion's block_level_fusion_config output_tiles; with\n"
    "                      neither, --tiles prints the symbolic tiles and --verify\n"
    "                      checks the first --max-tilings valid tilings)\n"
    "  --tilings           the tilings XLA's analysis enumerates (powers of two\n"
    "                      below each dim, then the dim) whose constraints hold:\n"
    "                      their number, and the bytes each moves per operand\n"
    "  --max-tilings=N     tilings listed (--tilings) or checked (--tiles --verify\n"
    "                      without sizes) per output; default 16\n"
    "  --layout            physical layout report of the result and operands of an\n"
    "                      instruction (tiled shape, memory space, sizes, padding,\n"
    "                      offset maps, shape:stride); with --all: every\n"
    "                      instruction's result, then the module's summary;\n"
    "                      --layout --summary: the summary alone (bytes of the\n"
    "                      buffers per memory space, the most padded buffers)\n"
    "  --shape-stride      read layouts, one per line: shape:stride ((2,4):(12,1),\n"
    "                      ((4,2),(4,3)):((4,16),(1,32)), _N accepted), XLA shapes\n"
    "                      (f32[3,5]{1,0:T(2,2)}), Ascend fractals zN|nZ|zZ|nN(TYPE,\n"
    "                      ROWS, COLS[, C0_BLOCKS]) and CuTe's algebra:\n"
    "                      coalesce(L), composition(A, B), complement(L, M),\n"
    "                      logical_divide(A, B), logical_product(A, B),\n"
    "                      make_layout_tile(L, (R, C)); report size, cosize,\n"
    "                      injectivity, offset and inverse maps and the XLA layout\n"
    "                      giving the same offsets (see README)\n"
    "  --compare=EXPECTED  compare EXPECTED, maps hloidx printed earlier (text,\n"
    "                      mlir or json; V1 or V2 runtime variables), with what\n"
    "                      the other options print now for FILE: one line per\n"
    "                      block, equal text, equal relation (by canonical\n"
    "                      simplification or by enumeration), different (with a\n"
    "                      point in one relation only), missing or new; exit 0\n"
    "                      when all are equal as relations, else 1. When EXPECTED\n"
    "                      is an HLO dump, compares it with the dump FILE: the\n"
    "                      instructions whose maps, layouts, padding or memory\n"
    "                      spaces changed\n"
    "\n"
    "Inputs:\n"
    "  FILE                HLO text; '-' is standard input\n"
    "  DIR                 a dump folder (--xla_dump_to): its files that hold HLO\n"
    "                      (the text starts with HloModule or ENTRY, after\n"
    "                      comments), in name order; any other file is skipped\n"
    "                      with a note; subfolders are not read\n"
    "  --stage=STAGE       only XLA dump files of this stage: the file name, less\n"
    "                      its extension, ends in STAGE after '.', '_' or '-'\n"
    "                      (before_optimizations, after_optimizations, or a pass\n"
    "                      dump's after_PASS)\n"
    "\n"
    "Selection (default mode, --list, --layout, the tile modes):\n"
    "  --instr=NAME        an instruction of any computation ('%' optional; the\n"
    "                      ENTRY computation's first); repeatable, printed in\n"
    "                      command-line order; default: the ENTRY root\n"
    "  --match=REGEX       instructions whose name contains a match of REGEX\n"
    "                      (POSIX extended; '^fusion\\.1$' for one name)\n"
    "  --opcode=OP[,OP]    instructions with one of these opcodes (repeatable)\n"
    "  --all               every fusion and every other instruction with operands\n"
    "                      (not tuple, get-tuple-element, parameter) of ENTRY and of\n"
    "                      the computations it reaches through control flow\n"
    "                      (fused and to_apply computations are not walked)\n"
    "                      --match and --opcode look at every instruction of every\n"
    "                      computation, or with --all at those --all walks; given\n"
    "                      together, both must hold. --instr excludes them and --all.\n"
    "  --computation=NAME  (default mode) the computation NAME as if it were the\n"
    "                      body of a fusion: maps from its root (or root tuple\n"
    "                      elements) to its parameters, composed through its\n"
    "                      instructions (a fused computation cut out of a dump, a\n"
    "                      chain of unfused ops); excludes the options above\n"
    "\n"
    "Maps (default mode):\n"
    "  --direction=DIR     out2in | in2out | both (default: both)\n"
    "  --output=N          the result index (tuple element): out2in maps of output N;\n"
    "                      in2out: the maps into output N only (alias --output_id)\n"
    "  --operand=N         in2out maps of operand N; out2in: the maps into operand\n"
    "                      N only (alias --operand_id). With --all: instructions\n"
    "                      without that output / operand have no such block\n"
    "  --physical          compose the minor_to_major permutations in, as XLA's\n"
    "                      use_physical_layout (also --physical=major)\n"
    "  --physical=tiled    maps between tiled physical coordinates (tiles and\n"
    "                      padding included); the value needs the '='\n"
    "  --format=FMT        text (default) | json (one document for the whole run)\n"
    "                      | mlir (each map as #xla.indexing_map<\"...\">)\n"
    "                      | filecheck (the text as '// CHECK:' lines, to paste\n"
    "                      under an HLO test)\n"
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
    "  --grouped           instead of out2in and in2out, XLA's grouped indexing of a\n"
    "                      fusion (or --computation): for each output, the maps from\n"
    "                      it to every instruction inside that it reads, parameters\n"
    "                      included (with --all: every fusion)\n"
    "  --xla-compat        exactly what XLA's indexing analysis prints, its unknown\n"
    "                      maps and its known mistakes included (default: hloidx's\n"
    "                      semantics, which go further where XLA gives up and are\n"
    "                      correct where XLA is not; see README)\n"
    "  --skip-unknown      leave out every block whose maps are all 'unknown\n"
    "                      indexing' (and the --summary lines of such operands)\n"
    "  --show-hlo          each block's header also shows the instruction's line\n"
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
    "  --format=mlir       print maps as #xla.indexing_map<\"...\"> (also read;\n"
    "                      --map takes text or mlir)\n"
    "Variable names are kept as written ((th_x, bl_x) prints back so); queries\n"
    "print as '// ' lines after the map, so the output reads back as maps.\n"
    "\n"
    "Layout queries (--layout: every array reported; --shape-stride: each layout):\n"
    "  --at=COORD          (repeatable) offset of a coordinate: (i,j), a nested\n"
    "                      ((i0,i1),j) or a 1-D index\n"
    "  --offset=N          (repeatable) the coordinates stored at offset N\n"
    "  --grid              table of the offset of each coordinate of a 2-D layout\n"
    "  --kernel-layout=L   --layout: does shape:stride layout L give the offsets\n"
    "                      of each picked instruction's result (or of\n"
    "                      --operand=K)? 'equal', or an element where they differ\n"
    "\n"
    "Input options:\n"
    "  --allow-unknown     an unknown opcode or attribute name is a warning, not an\n"
    "                      error (for dumps of newer XLA versions): the op has\n"
    "                      'unknown indexing', the attribute is kept as written\n"
    "  --no-verify         a result or operand shape that disagrees with what the\n"
    "                      op gives (same rank) is a warning, not an error, as in\n"
    "                      XLA's unverified parse (e.g. print_indexing's inputs);\n"
    "                      the maps then follow the shapes as written\n"
    "\n"
    "Output options:\n"
    "  -o FILE             write the output to FILE instead of standard output\n"
    "  -q                  quiet: no warnings or notes (errors are still\n"
    "                      printed); with --compare only the blocks that are not\n"
    "                      equal\n"
    "  --fatal-warnings    a warning makes the exit status 1 (and, with several\n"
    "                      instructions, a block the analysis cannot handle is an\n"
    "                      error: it is reported and not printed)\n"
    "  --no-file-names     headers name no file ('## module NAME', context lines\n"
    "                      'line N'), so that output does not depend on the path\n"
    "                      of the input (JSON: \"file\": null)\n"
    "\n"
    "Output (default mode). Each block of maps starts with a header line, then\n"
    "context lines:\n"
    "    # NAME (out2in, output N[, physical|tiled])[: NOTE]\n"
    "    # NAME (in2out, input operand K[, physical|tiled])[: NOTE]\n"
    "    #   OPCODE SHAPE in COMPUTATION, FILE:LINE\n"
    "    #   operand K: NAME SHAPE     (out2in: each operand; in2out: operand K)\n"
    "    #   output N: SHAPE           (tuple results: out2in: output N;\n"
    "                                   in2out: each output)\n"
    "    #   hlo: LINE                 (--show-hlo)\n"
    "(a tuple SHAPE longer than 120 characters ends in '... N more'). The\n"
    "first line up to ')' is the block's key (stable across versions). NOTE\n"
    "says which entries have no map or why the block was not analyzed. Then one\n"
    "entry per operand ('operand id = K', out2in) or per output ('output id =\n"
    "N', in2out), each followed by its maps in XLA's text, sorted by their\n"
    "one-line text (numbers as numbers). --direction=out2in --output=N, or\n"
    "--direction=in2out --operand=N, on one instruction prints XLA's text alone\n"
    "(ComputeOutputToInputIndexing / ComputeInputToOutputIndexing: no header,\n"
    "'operand id = K' entries). Each module of a multi-module run, and every\n"
    "module under --all, starts with '## module NAME (FILE)'; under --all each\n"
    "computation with printed blocks starts with '## computation NAME'. A\n"
    "block the analysis cannot compute does not silence the instruction's\n"
    "other blocks. With several instructions (--all, --match, --opcode) it\n"
    "gets a warning on stderr, a ': not analyzed: WHY' note and 'unknown\n"
    "indexing' entries; the exit status is not changed by it (see\n"
    "--fatal-warnings). With one instruction the failing block prints nothing\n"
    "on standard output: the error alone, exit status 1. In hloidx's\n"
    "semantics an unknown map says why: 'unknown indexing (REASON)'.\n"
    "With --grouped each output of a fusion gets '# NAME (grouped, output N)',\n"
    "its context, then per instruction inside that it reads 'group INSTR'\n"
    "(', element E' for a tuple element) and the maps into it.\n"
    "\n"
    "  -h, --help          this text\n"
    "  -V, --version       version and the git commit it was built from\n"
    "\n"
    "Exit status: 0 success (and --compare: everything equal), 1 input or\n"
    "output error (unreadable input, parse or verifier error, unwritable\n"
    "output, out of memory; --compare: a difference), 2 usage error (and\n"
    "--symbolic-tile: no tile, see above), 3 internal error (and --verify: a\n"
    "map or a tile that disagrees with the op's definition).\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hloidx: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
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
  OPT_XLA_COMPAT, OPT_LIST, OPT_MATCH, OPT_OPCODE, OPT_SKIP_UNKNOWN, OPT_SHOW_HLO, OPT_STAGE,
  OPT_COMPARE, OPT_OUT_FILE, OPT_QUIET, OPT_FATAL_WARNINGS, OPT_NO_FILE_NAMES, OPT_ALLOW_UNKNOWN, OPT_NO_VERIFY,
  OPT_SHAPE_STRIDE, OPT_COMPOSE, OPT_SUBMAP, OPT_SYMS_TO_DIMS, OPT_NO_SIMPLIFY, OPT_REMOVE_UNUSED, OPT_EVAL,
  OPT_RANGES, OPT_AT, OPT_OFFSET, OPT_GRID, OPT_KERNEL_LAYOUT,
  OPT_SYMTILE, OPT_TILES, OPT_TILINGS, OPT_TILE_SIZES, OPT_MAX_TILINGS,
  OPT_VERIFY_SEED, OPT_COMPUTATION, OPT_GROUPED,
  OPT_END_
};

/* The long options (getopt's table format; optional_argument: only as
 * --NAME=VALUE) and the short ones ("h": -h; "o:" would take a value). */
static const struct option longopts[] = {
    {"check", no_argument, NULL, OPT_CHECK},
    {"map", no_argument, NULL, OPT_MAP},
    {"layout", no_argument, NULL, OPT_LAYOUT},
    {"list", no_argument, NULL, OPT_LIST},
    {"instr", required_argument, NULL, OPT_INSTR},
    {"match", required_argument, NULL, OPT_MATCH},
    {"opcode", required_argument, NULL, OPT_OPCODE},
    {"all", no_argument, NULL, OPT_ALL},
    {"direction", required_argument, NULL, OPT_DIRECTION},
    {"output", required_argument, NULL, OPT_OUTPUT},
    {"output_id", required_argument, NULL, OPT_OUTPUT},
    {"operand", required_argument, NULL, OPT_OPERAND},
    {"operand_id", required_argument, NULL, OPT_OPERAND},
    {"physical", optional_argument, NULL, OPT_PHYSICAL},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"verify", no_argument, NULL, OPT_VERIFY},
    {"skip-unknown", no_argument, NULL, OPT_SKIP_UNKNOWN},
    {"show-hlo", no_argument, NULL, OPT_SHOW_HLO},
    {"stage", required_argument, NULL, OPT_STAGE},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"xla-compat", no_argument, NULL, OPT_XLA_COMPAT},
    {"verify-seed", required_argument, NULL, OPT_VERIFY_SEED},
    {"computation", required_argument, NULL, OPT_COMPUTATION},
    {"grouped", no_argument, NULL, OPT_GROUPED},
    {"allow-unknown", no_argument, NULL, OPT_ALLOW_UNKNOWN},
    {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"fatal-warnings", no_argument, NULL, OPT_FATAL_WARNINGS},
    {"no-file-names", no_argument, NULL, OPT_NO_FILE_NAMES},
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
    {"symbolic-tile", no_argument, NULL, OPT_SYMTILE},
    {"tiles", no_argument, NULL, OPT_TILES},
    {"tilings", no_argument, NULL, OPT_TILINGS},
    {"tile-sizes", required_argument, NULL, OPT_TILE_SIZES},
    {"max-tilings", required_argument, NULL, OPT_MAX_TILINGS},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};
static const char shortopts[] = "hVo:q";
static const int short_ids[] = {['h'] = OPT_HELP, ['V'] = OPT_VERSION, ['o'] = OPT_OUT_FILE, ['q'] = OPT_QUIET};

/* The modes each option applies to (bit 1 << mode); 0: any. */
#define M(x) (1u << (x))
/* (--compare runs the default mode's walk: its selection and maps options) */
#define WALK (M(MODE_INDEX) | M(MODE_COMPARE))
/* the tile modes walk the same instructions (cmd_index.c) */
#define TILE_MODES (M(MODE_SYMTILE) | M(MODE_TILES) | M(MODE_TILINGS))
/* A column of the table that is no mode of its own: --symbolic-tile --map
 * (MODE_SYMTILE with map_input; cmd_symtile_map.c) reads maps, not HLO. */
#define SYMTILE_MAP (MODE_TILINGS + 1)
static const unsigned option_modes[OPT_END_ - OPT_CHECK] = {
    [OPT_INSTR - OPT_CHECK] = WALK | M(MODE_LIST) | M(MODE_LAYOUT) | TILE_MODES,
    [OPT_MATCH - OPT_CHECK] = WALK | M(MODE_LIST) | M(MODE_LAYOUT) | TILE_MODES,
    [OPT_OPCODE - OPT_CHECK] = WALK | M(MODE_LIST) | M(MODE_LAYOUT) | TILE_MODES,
    [OPT_ALL - OPT_CHECK] = WALK | M(MODE_LIST) | M(MODE_LAYOUT) | TILE_MODES,
    [OPT_DIRECTION - OPT_CHECK] = WALK,
    [OPT_OUTPUT - OPT_CHECK] = WALK | TILE_MODES,
    /* --layout: with --kernel-layout; --tiles and --tilings cover every operand */
    [OPT_OPERAND - OPT_CHECK] = WALK | M(MODE_LAYOUT) | M(MODE_SYMTILE),
    [OPT_PHYSICAL - OPT_CHECK] = WALK,
    [OPT_FORMAT - OPT_CHECK] = M(MODE_INDEX) | M(MODE_MAP) | M(MODE_TILES),
    [OPT_SUMMARY - OPT_CHECK] = M(MODE_INDEX) | M(MODE_LAYOUT),
    [OPT_VERIFY - OPT_CHECK] = M(MODE_INDEX) | M(MODE_TILES),
    [OPT_XLA_COMPAT - OPT_CHECK] = WALK | TILE_MODES | M(SYMTILE_MAP),
    [OPT_SKIP_UNKNOWN - OPT_CHECK] = WALK,
    [OPT_VERIFY_SEED - OPT_CHECK] = M(MODE_INDEX),
    /* a selection of its own: the computation as a fusion's body */
    [OPT_COMPUTATION - OPT_CHECK] = WALK,
    [OPT_GROUPED - OPT_CHECK] = M(MODE_INDEX),
    [OPT_NO_FILE_NAMES - OPT_CHECK] = M(MODE_INDEX) | M(MODE_LAYOUT) | TILE_MODES,
    [OPT_SHOW_HLO - OPT_CHECK] = M(MODE_INDEX),
    [OPT_STAGE - OPT_CHECK] = WALK | M(MODE_LIST) | M(MODE_LAYOUT) | M(MODE_CHECK) | TILE_MODES,
    [OPT_JOBS - OPT_CHECK] = M(MODE_CHECK),
    /* every mode that reads HLO */
    [OPT_ALLOW_UNKNOWN - OPT_CHECK] = WALK | M(MODE_CHECK) | M(MODE_LIST) | M(MODE_LAYOUT),
    [OPT_NO_VERIFY - OPT_CHECK] = WALK | M(MODE_CHECK) | M(MODE_LIST) | M(MODE_LAYOUT),
    [OPT_COMPOSE - OPT_CHECK] = M(MODE_MAP),
    [OPT_SUBMAP - OPT_CHECK] = M(MODE_MAP),
    [OPT_SYMS_TO_DIMS - OPT_CHECK] = M(MODE_MAP),
    [OPT_NO_SIMPLIFY - OPT_CHECK] = M(MODE_MAP),
    [OPT_REMOVE_UNUSED - OPT_CHECK] = M(MODE_MAP),
    [OPT_EVAL - OPT_CHECK] = M(MODE_MAP),
    [OPT_RANGES - OPT_CHECK] = M(MODE_MAP),
    [OPT_AT - OPT_CHECK] = M(MODE_LAYOUT) | M(MODE_SHAPE_STRIDE),
    [OPT_OFFSET - OPT_CHECK] = M(MODE_LAYOUT) | M(MODE_SHAPE_STRIDE),
    [OPT_GRID - OPT_CHECK] = M(MODE_LAYOUT) | M(MODE_SHAPE_STRIDE),
    [OPT_KERNEL_LAYOUT - OPT_CHECK] = M(MODE_LAYOUT),
    [OPT_TILE_SIZES - OPT_CHECK] = M(MODE_TILES),
    [OPT_MAX_TILINGS - OPT_CHECK] = M(MODE_TILES) | M(MODE_TILINGS),
};

static const char *const mode_names[] = {
    [MODE_INDEX] = "the default mode", [MODE_CHECK] = "--check", [MODE_MAP] = "--map",
    [MODE_LAYOUT] = "--layout", [MODE_LIST] = "--list", [MODE_COMPARE] = "--compare",
    [MODE_SHAPE_STRIDE] = "--shape-stride", [MODE_SYMTILE] = "--symbolic-tile", [MODE_TILES] = "--tiles",
    [MODE_TILINGS] = "--tilings", [SYMTILE_MAP] = "--symbolic-tile --map"};

/* ---- "did you mean" -------------------------------------------------------------------------- */

/* Edit distance (insertions, deletions, substitutions) between short names. */
static size_t edit_distance(const char *a, size_t na, const char *b) {
  size_t nb = strlen(b);
  if (na > 64 || nb > 64) return (size_t)-1;
  size_t row[65];
  for (size_t j = 0; j <= nb; j++) row[j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[nb];
}

/* The name of NAMES (count N, via GET) closest to S: the only one S is a
 * prefix of, else one within an edit distance of 2 (a third of the
 * length for long names); NULL if none. */
static const char *closest(const char *s, size_t len, int n, const char *(*get)(int)) {
  const char *prefix_of = NULL, *best = NULL;
  int nprefix = 0;
  size_t best_d = len / 3 > 2 ? len / 3 : 2;
  best_d++;
  for (int i = 0; i < n; i++) {
    const char *name = get(i);
    if (!name) continue;
    if (len > 0 && strncmp(name, s, len) == 0 && (!prefix_of || strcmp(prefix_of, name) != 0)) {
      prefix_of = name;
      nprefix++;
    }
    size_t d = edit_distance(s, len, name);
    if (d < best_d) {
      best_d = d;
      best = name;
    }
  }
  return best ? best : nprefix == 1 ? prefix_of : NULL;
}

static const char *long_name(int i) { return longopts[i].name; }
static const char *opcode_name(int i) { return i > 0 ? hlo_opcode_name((hlo_opcode)i) : NULL; }

static int unknown_option(const char *arg) {
  if (arg[1] != '-') return usage_error("unknown option '%s' (short options: -h, -V, -o FILE, -q)", arg);
  const char *name = arg + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const char *hint = closest(name, len, (int)(sizeof longopts / sizeof *longopts) - 1, long_name);
  if (hint) return usage_error("unknown option '--%.*s'; did you mean '--%s'?", (int)len, name, hint);
  return usage_error("unknown option '--%.*s'", (int)len, name);
}

/* ---- values ------------------------------------------------------------------------------------ */

static void push(const char ***v, int *n, const char *s) {
  *v = hb_realloc((void *)*v, (size_t)(*n + 1) * sizeof **v);
  (*v)[(*n)++] = s;
}

/* A name of an opcode: one of the table's, or its async form (X-start,
 * X-update, X-done), as the parser reads them. */
static bool known_opcode(const char *s) {
  size_t len = strlen(s);
  if (hlo_opcode_from_name(s, len) != HLO_OP_UNKNOWN) return true;
  static const char *const sfx[] = {"-start", "-update", "-done"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(sfx[i]);
    if (len > n && !strcmp(s + len - n, sfx[i]) && hlo_opcode_from_name(s, len - n) != HLO_OP_UNKNOWN) return true;
  }
  return false;
}

/* --opcode=A,B: each name checked; they point into a copy of the value. */
static int add_opcodes(hloidx_options *o, const char *value) {
  size_t n = strlen(value);
  char *copy = hb_malloc(n + 1);
  memcpy(copy, value, n + 1);
  o->owned = hb_realloc(o->owned, (size_t)(o->nowned + 1) * sizeof *o->owned);
  o->owned[o->nowned++] = copy;
  for (char *p = copy, *next; p; p = next) {
    next = strchr(p, ',');
    if (next) *next++ = '\0';
    if (!*p) return usage_error("--opcode needs opcode names separated by commas, not '%s'", value);
    if (!known_opcode(p)) {
      const char *hint = closest(p, strlen(p), HLO_OP_COUNT, opcode_name);
      if (hint) return usage_error("--opcode: unknown opcode '%s'; did you mean '%s'?", p, hint);
      return usage_error("--opcode: unknown opcode '%s'", p);
    }
    push(&o->opcodes, &o->nopcodes, p);
  }
  return -1;
}

/* --instr's value: an instruction name, never an option or a path. */
static int add_instr(hloidx_options *o, const char *value) {
  const char *name = value[0] == '%' ? value + 1 : value;
  if (!name[0]) return usage_error("--instr needs an instruction name");
  if (strchr(name, '/'))
    return usage_error("--instr takes an instruction name, not the path '%s' (write --instr=NAME FILE)", value);
  push(&o->instrs, &o->ninstrs, name);
  return -1;
}

/* A repeatable option's value (--eval, --at, --offset); at most OPT_MAX_POINTS of each. */
static int push_point(const char **list, int *n, const char *value, const char *name) {
  if (*n == OPT_MAX_POINTS) return usage_error("at most %d --%s options", OPT_MAX_POINTS, name);
  list[(*n)++] = value;
  return -1;
}

/* --tile-sizes=8,128: positive decimal integers separated by ','. */
static int parse_tile_sizes(hloidx_options *o, const char *value) {
  int n = 1;
  for (const char *p = value; *p; p++) n += *p == ',';
  long *v = hb_calloc((size_t)n, sizeof *v);
  const char *p = value;
  for (int i = 0; i < n; i++) {
    char *end;
    errno = 0;
    v[i] = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : 0;
    if (v[i] < 1 || errno || (*end && *end != ',')) {
      free(v);
      return usage_error("--tile-sizes needs positive integers separated by ',', not '%s'", value);
    }
    p = end + (*end == ',');
  }
  free(o->tile_sizes);
  o->tile_sizes = v;
  o->n_tile_sizes = n;
  return -1;
}

/* ---- parsing ------------------------------------------------------------------------------------- */

/* One option. VALUE: its argument or NULL. Returns -1, or an exit status. */
static int take(hloidx_options *o, int id, const char *value, int *modes) {
  switch (id) {
  case OPT_CHECK: o->mode = MODE_CHECK; (*modes)++; break;
  case OPT_MAP: o->mode = MODE_MAP; (*modes)++; break;
  case OPT_LAYOUT: o->mode = MODE_LAYOUT; (*modes)++; break;
  case OPT_LIST: o->mode = MODE_LIST; (*modes)++; break;
  case OPT_COMPARE:
    o->mode = MODE_COMPARE;
    o->expected = value;
    (*modes)++;
    break;
  case OPT_OUT_FILE:
    if (!value[0]) return usage_error("-o needs a file name");
    o->out_path = value;
    break;
  case OPT_QUIET: o->quiet = true; break;
  case OPT_FATAL_WARNINGS: o->fatal_warnings = true; break;
  case OPT_NO_FILE_NAMES: o->no_file_names = true; break;
  case OPT_INSTR: return add_instr(o, value);
  case OPT_OPCODE: return add_opcodes(o, value);
  case OPT_MATCH: {
    if (o->has_match) regfree(&o->match);
    o->has_match = false;
    int rc = regcomp(&o->match, value, REG_EXTENDED | REG_NOSUB);
    if (rc) {
      char msg[256];
      regerror(rc, &o->match, msg, sizeof msg);
      return usage_error("--match: invalid regular expression '%s': %s", value, msg);
    }
    o->has_match = true;
    break;
  }
  case OPT_ALL: o->all = true; break;
  case OPT_DIRECTION:
    if (!strcmp(value, "out2in")) o->direction = DIR_OUT2IN;
    else if (!strcmp(value, "in2out")) o->direction = DIR_IN2OUT;
    else if (!strcmp(value, "both")) o->direction = DIR_BOTH;
    else return usage_error("--direction must be out2in, in2out or both, not '%s'", value);
    break;
  case OPT_OUTPUT:
    if ((o->output = parse_index(value)) < 0)
      return usage_error("--output needs a non-negative integer, not '%s'", value);
    break;
  case OPT_OPERAND:
    if ((o->operand = parse_index(value)) < 0)
      return usage_error("--operand needs a non-negative integer, not '%s'", value);
    break;
  case OPT_PHYSICAL:
    if (!value || !strcmp(value, "major")) o->physical = PHYS_MAJOR;
    else if (!strcmp(value, "tiled")) o->physical = PHYS_TILED;
    else return usage_error("--physical takes 'major' or 'tiled', not '%s'", value);
    break;
  case OPT_FORMAT:
    if (!strcmp(value, "text")) o->format = FMT_TEXT;
    else if (!strcmp(value, "json")) o->format = FMT_JSON;
    else if (!strcmp(value, "mlir")) o->format = FMT_MLIR;
    else if (!strcmp(value, "filecheck")) o->format = FMT_FILECHECK;
    else return usage_error("--format must be text, json, mlir or filecheck, not '%s'", value);
    break;
  case OPT_SHAPE_STRIDE: o->mode = MODE_SHAPE_STRIDE; (*modes)++; break;
  case OPT_COMPOSE: o->mapop.compose = true; break;
  case OPT_SUBMAP: o->mapop.submap = value; break;
  case OPT_SYMS_TO_DIMS: o->mapop.symbols_to_dims = true; break;
  case OPT_NO_SIMPLIFY: o->mapop.no_simplify = true; break;
  case OPT_RANGES: o->mapop.ranges = true; break;
  case OPT_REMOVE_UNUSED:
    /* the values of analysis/map_ops.h's MO_UNUSED_* */
    if (!strcmp(value, "symbols")) o->mapop.remove_unused = 1;
    else if (!strcmp(value, "dims")) o->mapop.remove_unused = 2;
    else if (!strcmp(value, "vars")) o->mapop.remove_unused = 3;
    else return usage_error("--remove-unused takes symbols, dims or vars, not '%s'", value);
    break;
  case OPT_EVAL: return push_point(o->mapop.eval, &o->mapop.neval, value, "eval");
  case OPT_AT: return push_point(o->lq.at, &o->lq.nat, value, "at");
  case OPT_OFFSET: return push_point(o->lq.offset, &o->lq.noffset, value, "offset");
  case OPT_GRID: o->lq.grid = true; break;
  case OPT_KERNEL_LAYOUT: o->lq.kernel = value; break;
  case OPT_SYMTILE: o->mode = MODE_SYMTILE; (*modes)++; break;
  case OPT_TILES: o->mode = MODE_TILES; (*modes)++; break;
  case OPT_TILINGS: o->mode = MODE_TILINGS; (*modes)++; break;
  case OPT_TILE_SIZES: return parse_tile_sizes(o, value);
  case OPT_MAX_TILINGS:
    if ((o->max_tilings = parse_index(value)) < 0)
      return usage_error("--max-tilings needs a non-negative integer, not '%s'", value);
    break;
  case OPT_SUMMARY: o->summary = true; break;
  case OPT_VERIFY: o->verify = true; break;
  case OPT_XLA_COMPAT: o->xla_compat = true; break;
  case OPT_VERIFY_SEED: {
    long v = parse_index(value);
    if (v < 0) return usage_error("--verify-seed needs a non-negative integer, not '%s'", value);
    o->verify_seed = (unsigned long)v;
    break;
  }
  case OPT_COMPUTATION:
    o->computation = value[0] == '%' ? value + 1 : value;
    if (!o->computation[0]) return usage_error("--computation needs a computation name");
    break;
  case OPT_GROUPED: o->grouped = true; break;
  case OPT_ALLOW_UNKNOWN: o->allow_unknown = true; break;
  case OPT_NO_VERIFY: o->no_verify = true; break;
  case OPT_SKIP_UNKNOWN: o->skip_unknown = true; break;
  case OPT_SHOW_HLO: o->show_hlo = true; break;
  case OPT_STAGE:
    if (!value[0] || strchr(value, '/')) return usage_error("--stage needs a dump stage such as after_optimizations");
    o->stage = value;
    break;
  case OPT_JOBS: {
    long j = parse_index(value);
    if (j < 1 || j > 256) return usage_error("--jobs needs an integer from 1 to 256, not '%s'", value);
    o->jobs = (int)j;
    break;
  }
  case OPT_HELP: output_write(usage_text, sizeof usage_text - 1); return 0;
  case OPT_VERSION: {
    static const char version[] = "hloidx " HLOIDX_VERSION " (commit " HLOIDX_COMMIT ")\n";
    output_write(version, sizeof version - 1);
    return 0;
  }
  }
  return -1;
}

/* The options given but ignored by the mode, and combinations that would
 * be: a usage error each. GIVEN[id - OPT_CHECK]: the long name used. */
static int check_combinations(const hloidx_options *o, const char *const *given) {
  int mode = o->map_input ? SYMTILE_MAP : (int)o->mode;
  for (int id = OPT_CHECK; id < OPT_END_; id++) {
    unsigned m = option_modes[id - OPT_CHECK];
    if (given[id - OPT_CHECK] && m && !(m & M(mode))) {
      char modes[160] = "";
      for (int k = 0, n = 0; k < (int)(sizeof mode_names / sizeof *mode_names); k++)
        if (m & M(k))
          snprintf(modes + strlen(modes), sizeof modes - strlen(modes), "%s%s", n++ ? ", " : "", mode_names[k]);
      return usage_error("--%s does not apply to %s (only to %s)", given[id - OPT_CHECK], mode_names[mode], modes);
    }
  }
  bool select = o->has_match || o->nopcodes;
  if (o->ninstrs && (o->all || select))
    return usage_error("--instr names instructions: it excludes --all, --match and --opcode");
  if (o->computation && (o->ninstrs || o->all || select))
    return usage_error("--computation analyzes one computation: it excludes --instr, --all, --match and --opcode");
  int named = 0;
  for (int i = 0; i < o->nfiles; i++) named += strcmp(o->files[i], "-") != 0;
  if (o->stage && named == 0)
    return usage_error("--stage picks dump files by name: name the FILEs or a DIR (not standard input)");
  if (o->mode == MODE_MAP && o->format != FMT_TEXT && o->format != FMT_MLIR)
    return usage_error("--map prints maps as text or mlir (--format=text or --format=mlir)");
  if (o->mode == MODE_LAYOUT) {
    bool queries = o->lq.nat || o->lq.noffset || o->lq.grid || o->lq.kernel;
    if (o->summary && (o->ninstrs || select))
      return usage_error("--layout --summary sums every buffer of each module (no --instr, --match, --opcode)");
    if (o->summary && queries)
      return usage_error("--layout --summary prints no array reports: --at, --offset, --grid and --kernel-layout "
                         "ask about them");
    if (o->all && select)
      return usage_error("--layout reports the instructions --match and --opcode pick, or with --all every one");
    if (o->lq.kernel && o->all)
      return usage_error("--kernel-layout compares the instructions picked (--instr, --match, --opcode; default "
                         "the ENTRY root): not with --all");
    if (o->operand >= 0 && !o->lq.kernel)
      return usage_error("--layout reports every operand: --operand only picks the one --kernel-layout compares");
    if (o->lq.kernel && !lq_check_kernel(o)) return 2;
    return -1;
  }
  if (o->mode == MODE_TILES) {
    if (o->format != FMT_TEXT && o->format != FMT_JSON)
      return usage_error("--tiles prints text or JSON (--format=mlir and filecheck print maps)");
    if (o->verify && o->format != FMT_TEXT) return usage_error("--tiles --verify prints a text report");
    if (given[OPT_MAX_TILINGS - OPT_CHECK] && !o->verify)
      return usage_error("--max-tilings: --tiles prints one tiling (--tilings lists them, --tiles --verify checks "
                         "them)");
    return -1;
  }
  if (o->mode != MODE_INDEX) return -1;
  if (o->summary && o->verify) return usage_error("--summary and --verify are exclusive");
  if (given[OPT_VERIFY_SEED - OPT_CHECK] && !o->verify)
    return usage_error("--verify-seed seeds --verify's samples (no --verify given)");
  if (o->grouped && (o->summary || o->verify || o->physical != PHYS_NONE || o->direction != DIR_BOTH ||
                     o->operand >= 0))
    return usage_error("--grouped prints logical out2in maps (no --summary, --verify, --physical, --direction or "
                       "--operand)");
  if ((o->summary || o->verify) && o->format != FMT_TEXT)
    return usage_error("--summary and --verify print text reports (--format=json, mlir and filecheck print maps)");
  if (o->summary && o->direction == DIR_IN2OUT)
    return usage_error("--summary describes the out2in reads of each operand (no --direction=in2out)");
  if (o->show_hlo && (o->summary || o->verify || o->format == FMT_JSON))
    return usage_error("--show-hlo adds to the headers of the maps (not with --summary, --verify, --format=json)");
  bool single = !o->all && !select && o->ninstrs <= 1;
  bool xla_exact = single && ((o->direction == DIR_OUT2IN && o->output >= 0 && o->operand < 0) ||
                              (o->direction == DIR_IN2OUT && o->operand >= 0 && o->output < 0));
  if (o->show_hlo && xla_exact && !o->summary && !o->verify)
    return usage_error("--show-hlo needs a header: the single block of --direction with --output / --operand "
                       "prints XLA's text alone");
  return -1;
}

int options_parse(int argc, char **argv, hloidx_options *o) {
  memset(o, 0, sizeof *o);
  o->output = -1;
  o->operand = -1;
  o->max_tilings = 16;
  o->files = hb_malloc((size_t)argc * sizeof *o->files);
  o->files_allocated = true;
  const char *given[OPT_END_ - OPT_CHECK] = {0};
  int modes = 0;
  bool only_files = false;
  const char *spaced_instr = NULL; /* the first `--instr VALUE` (no '=') */
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_files || arg[0] != '-' || arg[1] == '\0') {
      o->files[o->nfiles++] = argv[i];
      continue;
    }
    if (!strcmp(arg, "--")) {
      only_files = true;
      continue;
    }
    int id, has_arg;
    const char *value = NULL, *spelling = NULL;
    if (arg[1] != '-') {
      const char *s = strchr(shortopts, arg[1]);
      if (!s || arg[1] == ':' || arg[2]) return unknown_option(arg);
      id = short_ids[(unsigned char)arg[1]];
      has_arg = s[1] == ':' ? required_argument : no_argument;
    } else {
      const char *name = arg + 2, *eq = strchr(name, '=');
      size_t len = eq ? (size_t)(eq - name) : strlen(name);
      const struct option *opt = longopts;
      while (opt->name && !(strlen(opt->name) == len && !strncmp(opt->name, name, len))) opt++;
      if (!opt->name) return unknown_option(arg);
      id = opt->val;
      has_arg = opt->has_arg;
      if (eq) value = eq + 1;
      if (eq && has_arg == no_argument) return usage_error("option '--%s' takes no value", opt->name);
      spelling = opt->name;
    }
    if (!value && has_arg == required_argument) {
      /* --NAME VALUE: the next word, unless it is another option */
      if (i + 1 >= argc) return usage_error("option '%s' needs a value (write %s=VALUE)", arg, arg);
      if (argv[i + 1][0] == '-' && argv[i + 1][1])
        return usage_error("option '%s' needs a value, not the option '%s' (write %s=VALUE)", arg, argv[i + 1], arg);
      value = argv[++i];
    }
    if (id == OPT_PHYSICAL && !value && i + 1 < argc &&
        (!strcmp(argv[i + 1], "tiled") || !strcmp(argv[i + 1], "major")))
      return usage_error("'--physical %s' reads '%s' as a file: write --physical=%s (or ./%s for a file)", argv[i + 1],
                         argv[i + 1], argv[i + 1], argv[i + 1]);
    if (spelling && id >= OPT_CHECK && id < OPT_END_) given[id - OPT_CHECK] = spelling;
    int rc = take(o, id, value, &modes);
    if (rc >= 0) return rc;
    if (id == OPT_INSTR && !strchr(arg, '=') && !spaced_instr) spaced_instr = value;
  }
  if (given[OPT_MAP - OPT_CHECK] && given[OPT_SYMTILE - OPT_CHECK] && modes == 2) {
    o->mode = MODE_SYMTILE; /* the symbolic tiles of maps */
    o->map_input = true;
    modes = 1;
  }
  if (modes > 1)
    return usage_error("--check, --map, --layout, --list, --compare, --shape-stride, --symbolic-tile, --tiles and "
                       "--tilings are exclusive, except --symbolic-tile with --map");
  int rc = check_combinations(o, given);
  if (rc >= 0) return rc;
  /* `--instr f.hlo` without a file would take the file for a name and wait
   * on standard input */
  struct stat st;
  if (spaced_instr && o->nfiles == 0 && stat(spaced_instr, &st) == 0)
    return usage_error("--instr takes an instruction name and '%s' is a file: write --instr=NAME %s", spaced_instr,
                       spaced_instr);
  return -1;
}

void options_free(hloidx_options *o) {
  if (o->has_match) regfree(&o->match);
  free(o->tile_sizes);
  for (int i = 0; i < o->nowned; i++) free(o->owned[i]);
  free(o->owned);
  free(o->instrs);
  free(o->opcodes);
  if (o->files_allocated) free(o->files);
  memset(o, 0, sizeof *o);
}
