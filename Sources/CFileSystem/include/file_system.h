#ifndef VT_FILE_SYSTEM_H
#define VT_FILE_SYSTEM_H

// The one call Swift's Glibc module does not export: renameat2 is declared only under
// _GNU_SOURCE, which the module is built without.

/// rename(2) that fails with EEXIST instead of replacing what is at `target`
/// (renameat2 with RENAME_NOREPLACE). Returns 0, or -1 with errno set.
int vt_rename_noreplace(const char *source, const char *target);

#endif
