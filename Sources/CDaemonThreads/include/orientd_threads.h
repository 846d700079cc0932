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

/// Drops from this process's memory the resident pages of the file mapped at `address` that are
/// the file's own: mappings that cannot be written and hold no page copied on write, in memory or
/// swapped out (code and read-only data never written; not relocated data, not writable data).
/// The next access reads a page back from the page cache. KiB released, or -1 when
/// /proc/self/smaps cannot be read or nothing of a file is mapped at `address`. A page that a
/// debugger writes (a breakpoint) between the check and the release would be lost.
long orientd_release_clean_pages_of_file_at(const void *address);

/// The same for orientd's own executable: what only the start ran (the argument parser) stops
/// counting against it.
long orientd_release_own_file_pages(void);
/// The same for every file mapped (the libraries too): their pages used only to start (libiio's
/// XML parser, ICU, libgcrypt) go, those used later come back on their first access. Returns the
/// KiB released, or -1 when /proc/self/smaps cannot be read.
long orientd_release_clean_file_pages(void);

#endif
