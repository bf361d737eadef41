/* Command-line options of hloidx (parsed once in main, read by the commands). */
#ifndef HLOIDX_OPTIONS_H
#define HLOIDX_OPTIONS_H

#include <stdbool.h>

typedef enum {
  MODE_INDEX,  /* default: indexing maps of instructions */
  MODE_CHECK,  /* --check: parse and verify only */
  MODE_MAP,    /* --map: read, simplify and print indexing maps */
  MODE_LAYOUT, /* --layout: physical layout report */
} hloidx_mode;

typedef enum { DIR_BOTH, DIR_OUT2IN, DIR_IN2OUT } hloidx_direction;
typedef enum { FMT_TEXT, FMT_JSON, FMT_MLIR } hloidx_format;
typedef enum {
  PHYS_NONE,    /* logical indices (XLA's default) */
  PHYS_MAJOR,   /* --physical: minor_to_major permutations, as XLA's use_physical_layout */
  PHYS_TILED,   /* --physical=tiled: tiled physical coordinates */
} hloidx_physical;

typedef struct {
  hloidx_mode mode;
  const char *instr;        /* --instr NAME without a leading '%'; NULL = ENTRY root */
  hloidx_direction direction;
  long output;              /* --output N; -1 = every result */
  long operand;             /* --operand N; -1 = every operand */
  hloidx_physical physical;
  hloidx_format format;
  bool all;                 /* --all */
  bool summary;             /* --summary */
  bool verify;              /* --verify */
  unsigned long verify_seed; /* --verify-seed N (default 0) */
  bool xla_compat;          /* --xla-compat: exactly XLA's analysis (its unknowns and quirks) */
  const char *computation;  /* --computation NAME: that computation as a fusion body; NULL = none */
  bool grouped;             /* --grouped: the maps from a fusion's output to every instruction inside */
  int jobs;                 /* --jobs N; 0 = one per processor */
  int nfiles;               /* 0 = standard input */
  char **files;
} hloidx_options;

/* Parses argv. On success returns -1 and fills *o; otherwise returns the
 * exit status to use (0 after --help/--version, 2 after a usage error, with
 * the message already printed). */
int options_parse(int argc, char **argv, hloidx_options *o);

#endif
