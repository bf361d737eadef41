/* One function per mode; each returns the process exit status
 * (0 success, 1 input error, 2 usage error, 3 internal error). */
#ifndef HLOIDX_COMMANDS_H
#define HLOIDX_COMMANDS_H

#include "options.h"

int cmd_check(const hloidx_options *o);  /* cmd_check.c  */
int cmd_map(const hloidx_options *o);    /* cmd_map.c    */
int cmd_index(const hloidx_options *o);  /* cmd_index.c  */
int cmd_layout(const hloidx_options *o); /* cmd_layout.c */
int cmd_symtile_map(const hloidx_options *o); /* cmd_symtile_map.c: --symbolic-tile --map */

#endif
