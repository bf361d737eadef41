/* One function per mode; each returns the process exit status
 * (0 success, 1 input or output error, 2 usage error, 3 internal error).
 * Standard output goes through cli/output.h; main closes it. */
#ifndef HLOIDX_COMMANDS_H
#define HLOIDX_COMMANDS_H

#include "options.h"

int cmd_check(const hloidx_options *o);  /* cmd_check.c  */
int cmd_map(const hloidx_options *o);    /* cmd_map.c    */
int cmd_index(const hloidx_options *o);  /* cmd_index.c  */
int cmd_layout(const hloidx_options *o); /* cmd_layout.c */
int cmd_list(const hloidx_options *o);   /* cmd_list.c   */
int cmd_compare(const hloidx_options *o); /* cmd_compare.c */
int cmd_shape_stride(const hloidx_options *o); /* cmd_shape_stride.c */
int cmd_symtile_map(const hloidx_options *o); /* cmd_symtile_map.c: --symbolic-tile --map */

#endif
