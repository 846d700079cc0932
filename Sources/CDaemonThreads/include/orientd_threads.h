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

/// Drops from this process's memory the resident pages of every mapped file that are the file's
/// own: mappings that cannot be written and hold no page copied on write, in memory or swapped out
/// (code and read-only data never written; not relocated data, not writable data). Pages used
/// only to start (the argument parser, libiio's XML parser and ICU, libgcrypt) go; those used later
/// come back from the page cache on their first access. KiB released, or -1 when /proc/self/smaps
/// cannot be read. A page a debugger writes (a breakpoint) between the check and the release would
/// be lost.
long orientd_release_clean_file_pages(void);

#endif
