/* Scan driver: every opcode of the table (hlo_ir.h) with 0, 1, 2, 3 and 6
 * operands, arrays and a tuple, under each attribute list that a rule
 * reads, one instruction a module, given to the analysis target's entry
 * point (fuzz_analysis.c: parse, the analysis of the module verified and,
 * as --no-verify has it, unverified, then the tile modes). A rule that
 * reads an operand by position met none on inputs of this kind
 * (cholesky(), triangular-solve(a), all-reduce-done(): found by such a
 * scan, not by libFuzzer, whose mutations rarely keep an instruction well
 * formed while changing its operand count). Every input must return; a
 * crash or a sanitizer report fails the test (CTest's fuzz/scan_arity,
 * under ASan and UBSan in the sanitizer build).
 *
 *     fuzz_scan_arity [-v]      # -v: each module before it runs */
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"
#include "hlo_ir.h"

static const char *const operands[] = {"", "p", "p, p", "t", "p, p, p", "p, t, p, p, p, p"};

static const char *const attrs[] = {
    "",
    ", dimensions={0}",
    ", dimensions={1,0}",
    ", to_apply=s",
    ", dimensions={0}, to_apply=s",
    ", to_apply=s, window={size=1x1}",
    ", to_apply=s, window={size=2x2 stride=1x1 pad=1_1x1_1}",
    ", select=s, scatter=s, window={size=1x1}",
    ", kind=kLoop, calls=s",
    ", kind=kLoop, calls=f",
    ", calls=s",
    ", body=s, condition=s",
    ", branch_computations={s, s}",
    ", true_computation=s, false_computation=s",
    ", index=0",
    ", iota_dimension=0",
    ", slice={[0:4], [0:4]}",
    ", dynamic_slice_sizes={1,1}",
    ", padding=0_1x1_0",
    ", algorithm=rng_default",
    ", distribution=rng_uniform",
    ", lower=true",
    ", left_side=true, lower=true",
    ", lhs_contracting_dims={1}, rhs_contracting_dims={0}",
    ", window={size=1x1}, dim_labels=b0f_0io->b0f",
    ", offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}",
    (", update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
     "to_apply=s"),
    ", replica_groups={{0,1}}, to_apply=s",
    ", replica_groups={{0,1}}, dimensions={0}",
    ", replica_groups={{0,1}}, dimensions={0}, to_apply=s",
    ", source_target_pairs={{0,1}}",
    ", fft_type=FFT, fft_length={4}",
    ", exponent_bits=5, mantissa_bits=2",
    ", direction=LT",
    ", custom_call_target=\"Sharding\"",
    ", custom_call_target=\"SPMDFullToShardShape\"",
    ", custom_call_target=\"__cublas$gemm\"",
};

#define N(a) (sizeof(a) / sizeof *(a))

/* Whether the text is read, verified (2) or as --no-verify reads it (1):
 * said at the end, so that a parser that came to reject them all does not
 * pass as "nothing crashed". */
static int readable(const char *text, size_t n) {
  char *p = fuzz_padded_copy((const uint8_t *)text, n);
  hlo_parse_result r;
  hlo_error err;
  int got = hlo_parse_file(p, n, &r, &err) == 0 ? 2 : 0;
  if (!got) {
    hlo_parse_set_options(&(hlo_parse_options){.allow_unknown = true, .no_verify = true});
    got = hlo_parse_file(p, n, &r, &err) == 0;
    hlo_parse_set_options(&(hlo_parse_options){0});
  }
  if (got) hlo_parse_result_free(&r);
  free(p);
  return got;
}

int main(int argc, char **argv) {
  int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
  static char text[1024];
  unsigned runs = 0, read[3] = {0};
  for (int op = 1; op < HLO_OP_COUNT; op++)
    for (size_t a = 0; a < N(attrs); a++)
      for (size_t k = 0; k < N(operands); k++) {
        int n = snprintf(text, sizeof text,
                         "HloModule scan\n\n"
                         "s {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n"
                         "f {\n  ROOT a = f32[4,4]{1,0} parameter(0)\n}\n\n"
                         "ENTRY e {\n  p = f32[4,4]{1,0} parameter(0)\n  t = (f32[4,4]{1,0}) tuple(p)\n"
                         "  ROOT r = f32[4,4]{1,0} %s(%s)%s\n}\n",
                         hlo_opcode_name((hlo_opcode)op), operands[k], attrs[a]);
        if (n < 0 || (size_t)n >= sizeof text) {
          fprintf(stderr, "scan_arity: a module of more than %zu bytes\n", sizeof text);
          return 2;
        }
        if (verbose) fprintf(stderr, "scan_arity: %s(%s)%s\n", hlo_opcode_name((hlo_opcode)op), operands[k], attrs[a]);
        uint8_t *in = hb_malloc((size_t)n); /* (exact size: ASan sees a read past the end) */
        memcpy(in, text, (size_t)n);
        read[readable(text, (size_t)n)]++;
        LLVMFuzzerTestOneInput(in, (size_t)n);
        free(in);
        runs++;
      }
  printf("scan_arity: %u modules, every one returned: %u verified, %u read unverified, %u rejected\n", runs,
         read[2], read[1], read[0]);
  /* (566 verified and 2 more unverified of 30,192 in November 2026: a wrong
   * operand count is a parse error, --no-verify or not) */
  return read[2] >= 500 ? 0 : 1;
}
