// Test-only: an IIO device node (/dev/iio:deviceN) that answers IIO_GET_EVENT_FD_IOCTL, through
// umockdev's ioctl handler, as the kernel's IIO core does. umockdev cannot hand a new descriptor to
// the process it emulates for, so the answer is a descriptor number that process already has:
// the test starts it with a FIFO open at that number, and writes struct iio_event_data records
// into the FIFO as the kernel would into the event descriptor. Any other ioctl is not a device's
// (ENOTTY).
#include "umockdev_shim.h"

#include <errno.h>
#include <linux/iio/events.h>
#include <stdio.h>
#include <umockdev.h>

struct umockdev_shim_testbed {
    UMockdevTestbed *testbed;
};

struct umockdev_shim_iio_events {
    UMockdevTestbed *testbed;
    UMockdevIoctlBase *handler;
    char devnode[256];
    int descriptor;  // the number answered; negative: the ioctl fails with that errno
    int asked;       // how many IIO_GET_EVENT_FD_IOCTL were answered
};

static gboolean on_ioctl(UMockdevIoctlBase *handler, UMockdevIoctlClient *client, gpointer user_data)
{
    (void)handler;
    struct umockdev_shim_iio_events *device = user_data;
    if (umockdev_ioctl_client_get_request(client) != IIO_GET_EVENT_FD_IOCTL) {
        umockdev_ioctl_client_complete(client, -1, ENOTTY);
        return TRUE;
    }
    __atomic_add_fetch(&device->asked, 1, __ATOMIC_SEQ_CST);
    int descriptor = __atomic_load_n(&device->descriptor, __ATOMIC_SEQ_CST);
    if (descriptor < 0) {
        umockdev_ioctl_client_complete(client, -1, -descriptor);
        return TRUE;
    }
    GError *gerror = NULL;
    UMockdevIoctlData *data = umockdev_ioctl_data_resolve(umockdev_ioctl_client_get_arg(client), 0, sizeof(int), &gerror);
    if (!data) {
        g_clear_error(&gerror);
        umockdev_ioctl_client_complete(client, -1, EFAULT);
        return TRUE;
    }
    umockdev_ioctl_data_update(data, 0, (const guint8 *)&descriptor, sizeof(int));
    umockdev_ioctl_client_complete(client, 0, 0);
    return TRUE;
}

umockdev_shim_iio_events *umockdev_shim_iio_events_attach(umockdev_shim_testbed *shim, const char *devnode, int descriptor,
                                                          char *error, unsigned long error_length)
{
    struct umockdev_shim_iio_events *device = g_new0(struct umockdev_shim_iio_events, 1);
    device->testbed = g_object_ref(shim->testbed);
    snprintf(device->devnode, sizeof device->devnode, "%s", devnode);
    device->descriptor = descriptor;
    device->handler = umockdev_ioctl_base_new();
    g_signal_connect(device->handler, "handle-ioctl", G_CALLBACK(on_ioctl), device);
    GError *gerror = NULL;
    if (!umockdev_testbed_attach_ioctl(shim->testbed, devnode, device->handler, &gerror)) {
        snprintf(error, error_length, "%s", gerror ? gerror->message : "unknown error");
        g_clear_error(&gerror);
        g_object_unref(device->handler);
        g_object_unref(device->testbed);
        g_free(device);
        return NULL;
    }
    return device;
}

void umockdev_shim_iio_events_answer(umockdev_shim_iio_events *device, int descriptor)
{
    __atomic_store_n(&device->descriptor, descriptor, __ATOMIC_SEQ_CST);
}

int umockdev_shim_iio_events_asked(const umockdev_shim_iio_events *device)
{
    return __atomic_load_n(&device->asked, __ATOMIC_SEQ_CST);
}

void umockdev_shim_iio_events_free(umockdev_shim_iio_events *device)
{
    if (!device)
        return;
    umockdev_testbed_detach_ioctl(device->testbed, device->devnode, NULL);
    g_object_unref(device->handler);
    g_object_unref(device->testbed);
    g_free(device);
}
