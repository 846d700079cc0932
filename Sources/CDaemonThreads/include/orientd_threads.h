#ifndef ORIENTD_THREADS_H
#define ORIENTD_THREADS_H

// What DaemonThreads and orientd's entry need from C: no library beyond libc and the Swift
// runtime, so orientctl and the client library link no libiio, libudev or libsystemd for it.

/// Sends every job of Swift concurrency's global executor to `enqueue` instead of libdispatch's
/// worker pool (whose monitor timer wakes a process once a second for good once it has run a job).
/// Call it before the first job; 1 when the hook was free and is now set.
int orientd_route_global_jobs(void (*enqueue)(void *job));

/// Names the calling thread for the kernel (/proc, top -H), cut to its 15 bytes; 0 on success.
/// Foundation on Linux does not pass a Thread's name on; pthread_setname_np is not in Swift's Glibc.
int orientd_name_this_thread(const char *name);

/// A non-blocking, close-on-exec eventfd that wakes a thread sleeping in poll(2); -1 with errno.
int orientd_make_wake_descriptor(void);

/// Pages out (MADV_PAGEOUT, advice that never destroys data) the resident pages of every mapped
/// file that are the file's own: mappings that cannot be written and hold no page copied on
/// write, in memory or swapped out (code and read-only data never written). Pages used only to
/// start (the argument parser, libiio's XML parser) go; those used later are read back on their
/// first access. Pages other processes map too (libc's) stay. KiB advised, or -1 when
/// /proc/self/smaps cannot be read.
long orientd_release_clean_file_pages(void);

#endif
