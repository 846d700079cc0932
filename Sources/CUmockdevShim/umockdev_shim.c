#include "umockdev_shim.h"

#include <stdio.h>
#include <umockdev.h>

struct umockdev_shim_testbed {
    UMockdevTestbed *testbed;
};

umockdev_shim_testbed *umockdev_shim_testbed_new(void)
{
    umockdev_shim_testbed *shim = g_new0(umockdev_shim_testbed, 1);
    shim->testbed = umockdev_testbed_new();
    return shim;
}

void umockdev_shim_testbed_free(umockdev_shim_testbed *shim)
{
    if (!shim)
        return;
    g_object_unref(shim->testbed);
    g_free(shim);
}

const char *umockdev_shim_testbed_root(const umockdev_shim_testbed *shim)
{
    return umockdev_testbed_get_root_dir(shim->testbed);
}

int umockdev_shim_testbed_add(umockdev_shim_testbed *shim, const char *description, char *error,
                              unsigned long error_length)
{
    GError *gerror = NULL;
    if (umockdev_testbed_add_from_string(shim->testbed, description, &gerror))
        return 1;
    snprintf(error, error_length, "%s", gerror ? gerror->message : "unknown error");
    g_clear_error(&gerror);
    return 0;
}

void umockdev_shim_testbed_uevent(umockdev_shim_testbed *shim, const char *syspath,
                                  const char *action)
{
    umockdev_testbed_uevent(shim->testbed, syspath, action);
}
