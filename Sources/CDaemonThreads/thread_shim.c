#define _GNU_SOURCE
#include "orientd_threads.h"

#include <pthread.h>
#include <string.h>

int orientd_name_this_thread(const char *name)
{
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}

#include <sys/eventfd.h>

int orientd_make_wake_descriptor(void)
{
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
