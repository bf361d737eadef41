/* Command-line options of hloidx (parsed once in main, read by the commands). */
#ifndef HLOIDX_OPTIONS_H
#define HLOIDX_OPTIONS_H

#include <regex.h>
#include <stdbool.h>

typedef enum {
  MODE_INDEX,  /* default: indexing maps of instructions */
  MODE_CHECK,  /* --check: parse and verify only */
  MODE_MAP,    /* --map: read, simplify and print indexing maps */
  MODE_LAYOUT, /* --layout: physical layout report */
  MODE_LIST,   /* --list: one line per instruction */
  MODE_COMPARE, /* --compare EXPECTED: a golden (or a dump) against the current analysis */
  MODE_SHAPE_STRIDE, /* --shape-stride: shape:stride layouts and their algebra */
  MODE_SYMTILE, /* --symbolic-tile: XLA's symbolic tile of out2in maps (or of --map input) */
  MODE_TILES,   /* --tiles: the operand tiles of a tiling of each fusion */
  MODE_TILINGS, /* --tilings: the valid tilings of each fusion and their bytes */
} hloidx_mode;

/* Most repetitions of --eval, --at and --offset. */
#define OPT_MAX_POINTS 64

typedef enum { DIR_BOTH, DIR_OUT2IN, DIR_IN2OUT } hloidx_direction;
typedef enum { FMT_TEXT, FMT_JSON, FMT_MLIR, FMT_FILECHECK } hloidx_format;
typedef enum {
  PHYS_NONE,    /* logical indices (XLA's default) */
  PHYS_MAJOR,   /* --physical: minor_to_major permutations, as XLA's use_physical_layout */
  PHYS_TILED,   /* --physical=tiled: tiled physical coordinates */
} hloidx_physical;

typedef struct {
  hloidx_mode mode;
  int ninstrs;              /* --instr NAME, repeatable: names without a leading '%' */
  const char **instrs;
  int nopcodes;             /* --opcode=OP[,OP...], repeatable */
  const char **opcodes;
  bool has_match;           /* --match=REGEX: POSIX extended regex searched in names */
  regex_t match;
  hloidx_direction direction;
  long output;              /* --output N (--output_id); -1 = every result */
  long operand;             /* --operand N (--operand_id); -1 = every operand */
  hloidx_physical physical;
  hloidx_format format;
  bool all;                 /* --all */
  bool summary;             /* --summary */
  bool verify;              /* --verify */
  unsigned long verify_seed; /* --verify-seed N (default 0) */
  bool xla_compat;          /* --xla-compat: exactly XLA's analysis (its unknowns and quirks) */
  const char *computation;  /* --computation NAME: that computation as a fusion body; NULL = none */
  bool grouped;             /* --grouped: the maps from a fusion's output to every instruction inside */
  bool allow_unknown;       /* --allow-unknown: unknown opcodes and attributes are warnings */
  bool no_verify;           /* --no-verify: shape checks XLA's unverified parse skips are warnings */
  bool skip_unknown;        /* --skip-unknown: no block whose every map is unknown */
  bool show_hlo;            /* --show-hlo: each block's context shows the instruction's line */
  const char *stage;        /* --stage=STAGE: XLA dump files of that stage only; NULL = any */
  int jobs;                 /* --jobs N; 0 = one per processor */
  const char *out_path;     /* -o FILE; NULL = standard output */
  const char *expected;     /* --compare EXPECTED */
  bool quiet;               /* -q: no warnings */
  bool fatal_warnings;      /* --fatal-warnings: warnings are errors (exit 1) */
  bool no_file_names;       /* --no-file-names: module headers name the module only */
  /* --map operations (cmd_map.c reads the lists: they name the maps' variables) */
  struct {
    bool compose, symbols_to_dims, no_simplify, ranges;
    int remove_unused;      /* 0, or MO_UNUSED_* of analysis/map_ops.h */
    const char *submap;     /* --submap=LIST */
    int neval;
    const char *eval[OPT_MAX_POINTS]; /* --eval=POINT, in order */
  } mapop;
  /* layout queries (--layout, --shape-stride; layout_query.c) */
  struct {
    int nat, noffset;
    const char *at[OPT_MAX_POINTS]; /* --at=COORD */
    const char *offset[OPT_MAX_POINTS]; /* --offset=N */
    bool grid;                /* --grid */
    const char *kernel;       /* --kernel-layout=SPEC */
  } lq;
  bool map_input;           /* --symbolic-tile --map: the input holds indexing maps */
  int n_tile_sizes;         /* --tile-sizes=8,128: entries (0 = not given) */
  long *tile_sizes;         /* n_tile_sizes entries, each >= 1 */
  long max_tilings;         /* --max-tilings N: tilings listed per fusion (default 16) */
  int nfiles;               /* 0 = standard input */
  char **files;             /* after inputs_expand: the files to read (directories replaced) */
  char **owned;             /* paths allocated by inputs_expand (nowned entries) */
  int nowned;
  bool files_allocated;     /* files is an array of ours, not argv's */
} hloidx_options;

/* Parses argv. On success returns -1 and fills *o; otherwise returns the
 * exit status to use (0 after --help/--version, 2 after a usage error, with
 * the message already printed). */
int options_parse(int argc, char **argv, hloidx_options *o);
void options_free(hloidx_options *o);

/* Whether the options select instructions by name, regex or opcode. */
static inline bool options_select(const hloidx_options *o) {
  return o->ninstrs > 0 || o->has_match || o->nopcodes > 0;
}

#endif
