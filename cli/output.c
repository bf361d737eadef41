#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *out_name = "<stdout>";
static int out_errno; /* the first write error; 0 = none */
static bool out_used;  /* anything was written */

static void failed(void) {
  if (!out_errno) out_errno = errno ? errno : EIO;
}

int output_open(const char *path) {
  if (!path) return 0;
  out_name = path;
  if (!freopen(path, "w", stdout)) {
    fprintf(stderr, "hloidx: error: %s: cannot open for writing: %s\n", path, strerror(errno));
    return 1;
  }
  return 0;
}

bool output_write(const void *data, size_t len) {
  if (out_errno) return false;
  errno = 0;
  out_used |= len > 0;
  if (len && fwrite(data, 1, len, stdout) != len) failed();
  return !out_errno;
}

bool output_sync(void) {
  if (out_errno) return false;
  errno = 0;
  if (fflush(stdout) != 0) failed();
  return !out_errno;
}

bool output_failed(void) { return out_errno != 0; }

int output_close(int rc) {
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) failed();
  /* closing catches what only close reports (a full disk on some file
   * systems); stdout is not used after this */
  errno = 0;
  /* (a closed stdout that nothing was written to is no error) */
  if (fclose(stdout) != 0 && (out_used || errno != EBADF)) failed();
  if (!out_errno) return rc;
  fprintf(stderr, "hloidx: error: %s: cannot write: %s\n", out_name, strerror(out_errno));
  return rc == 3 ? 3 : 1;
}
