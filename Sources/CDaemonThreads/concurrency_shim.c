#include "orientd_threads.h"

#include <stddef.h>

// The Swift runtime's hook for its global executor: when set, every job Swift concurrency would
// hand to libdispatch's worker pool goes to it instead (the `original` enqueue is passed along).
// NIO sets it through dlsym, which cannot see it in a binary with the Swift runtime linked in
// statically (the runtime's symbols are hidden there); the linker still resolves this reference.
extern void *swift_task_enqueueGlobal_hook;

static void (*route_job)(void *job);

__attribute__((swiftcall)) static void enqueue_global(void *job, void *original)
{
    (void)original;
    route_job(job);
}

int orientd_route_global_jobs(void (*enqueue)(void *job))
{
    void *expected = NULL;
    route_job = enqueue;
    return __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &expected, (void *)enqueue_global,
                                       0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}
