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

/// Drops from this process's memory the resident pages of its own executable that are the file's
/// (code and read-only data never written): the ones that ran once, as the argument parser, stop
/// counting against it; the next access reads a page back from the page cache. Bytes of the
/// mappings released, or -1 when /proc/self/smaps cannot be read.
long orientd_release_own_file_pages(void);

#endif
