// Test-only: an evdev device (/dev/input/eventN) emulated through umockdev's ioctl handler, as the
// kernel's input core answers: the ioctls libevdev makes when it opens a device (a client that
// uses libevdev; orientd makes none of them, as it reads as iio-sensor-proxy does), and those
// iio-sensor-proxy's input drivers and orientd make (EVIOCGABS, EVIOCGSW). Axis values and the proximity
// switch can change at any time (the handler runs on umockdev's own thread); reads find no events
// waiting (EAGAIN), as on a device whose driver has nothing new to say.
#include "umockdev_shim.h"

#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <string.h>
#include <umockdev.h>

struct umockdev_shim_testbed {
    UMockdevTestbed *testbed;
};

struct umockdev_shim_evdev {
    UMockdevTestbed *testbed;
    UMockdevIoctlBase *handler;
    char devnode[256];
    char name[128];
    int accelerometer;
    int resolution;
    int axes[3];          // ABS_X, ABS_Y, ABS_Z values, read and written atomically
    int near;             // SW_FRONT_PROXIMITY
    int ioctls;           // how many ioctls were answered
};

static void set_bit(unsigned char *bits, size_t length, unsigned bit)
{
    if (bit / 8 < length)
        bits[bit / 8] |= (unsigned char)(1u << (bit % 8));
}

// Answers one ioctl into `out` (at most `size` bytes); returns the ioctl's result, or -1 with *error.
static long answer(struct umockdev_shim_evdev *device, unsigned long request, unsigned char *out, size_t size, int *error)
{
    unsigned type = _IOC_TYPE(request), number = _IOC_NR(request);
    if (type != 'E') {
        *error = ENOTTY;
        return -1;
    }
    memset(out, 0, size);
    if (number == _IOC_NR(EVIOCGVERSION)) {
        int version = EV_VERSION;
        memcpy(out, &version, size < sizeof version ? size : sizeof version);
        return 0;
    }
    if (number == _IOC_NR(EVIOCGID)) {
        struct input_id id = { .bustype = BUS_HOST, .vendor = 0x0001, .product = 0x0001, .version = 0x0100 };
        memcpy(out, &id, size < sizeof id ? size : sizeof id);
        return 0;
    }
    if (number == _IOC_NR(EVIOCGNAME(0))) {
        size_t length = strlen(device->name) + 1;
        memcpy(out, device->name, length < size ? length : size);
        return (long)(length < size ? length : size);
    }
    if (number == _IOC_NR(EVIOCGPHYS(0)) || number == _IOC_NR(EVIOCGUNIQ(0))) {
        *error = ENOENT;
        return -1;
    }
    if (number == _IOC_NR(EVIOCGPROP(0))) {
        if (device->accelerometer)
            set_bit(out, size, INPUT_PROP_ACCELEROMETER);
        return (long)size;
    }
    if (number == _IOC_NR(EVIOCGSW(0))) {
        if (!device->accelerometer && __atomic_load_n(&device->near, __ATOMIC_SEQ_CST))
            set_bit(out, size, SW_FRONT_PROXIMITY);
        return (long)size;
    }
    if (number == _IOC_NR(EVIOCGKEY(0)) || number == _IOC_NR(EVIOCGLED(0)) || number == _IOC_NR(EVIOCGSND(0)))
        return (long)size;
    if (number >= 0x20 && number < 0x20 + EV_CNT) { // EVIOCGBIT(type, length)
        unsigned ev = number - 0x20;
        if (ev == 0) {
            set_bit(out, size, EV_SYN);
            set_bit(out, size, device->accelerometer ? EV_ABS : EV_SW);
        } else if (ev == EV_ABS && device->accelerometer) {
            set_bit(out, size, ABS_X);
            set_bit(out, size, ABS_Y);
            set_bit(out, size, ABS_Z);
        } else if (ev == EV_SW && !device->accelerometer) {
            set_bit(out, size, SW_FRONT_PROXIMITY);
        }
        return (long)size;
    }
    if (number >= _IOC_NR(EVIOCGABS(0)) && number < _IOC_NR(EVIOCGABS(0)) + ABS_CNT && _IOC_DIR(request) == _IOC_READ) {
        unsigned axis = number - _IOC_NR(EVIOCGABS(0));
        if (!device->accelerometer || axis > ABS_Z) {
            *error = EINVAL;
            return -1;
        }
        struct input_absinfo info = {
            .value = __atomic_load_n(&device->axes[axis], __ATOMIC_SEQ_CST),
            .minimum = -2048, .maximum = 2048, .fuzz = 0, .flat = 0, .resolution = device->resolution,
        };
        memcpy(out, &info, size < sizeof info ? size : sizeof info);
        return 0;
    }
    *error = EINVAL;
    return -1;
}

static gboolean on_ioctl(UMockdevIoctlBase *handler, UMockdevIoctlClient *client, gpointer user_data)
{
    (void)handler;
    struct umockdev_shim_evdev *device = user_data;
    unsigned long request = umockdev_ioctl_client_get_request(client);
    size_t size = _IOC_SIZE(request);
    int error = 0;
    long result;
    __atomic_add_fetch(&device->ioctls, 1, __ATOMIC_SEQ_CST);
    if (_IOC_DIR(request) & _IOC_READ && size > 0) {
        GError *gerror = NULL;
        UMockdevIoctlData *data = umockdev_ioctl_data_resolve(umockdev_ioctl_client_get_arg(client), 0, size, &gerror);
        if (!data) {
            g_clear_error(&gerror);
            umockdev_ioctl_client_complete(client, -1, EFAULT);
            return TRUE;
        }
        unsigned char reply[4096];
        size_t length = size < sizeof reply ? size : sizeof reply;
        result = answer(device, request, reply, length, &error);
        if (result >= 0)
            umockdev_ioctl_data_update(data, 0, reply, (gint)length);
    } else {
        result = -1;
        error = (_IOC_TYPE(request) == 'E') ? EINVAL : ENOTTY;
    }
    umockdev_ioctl_client_complete(client, result, result < 0 ? error : 0);
    return TRUE;
}

static gboolean on_read(UMockdevIoctlBase *handler, UMockdevIoctlClient *client, gpointer user_data)
{
    (void)handler;
    (void)user_data;
    umockdev_ioctl_client_complete(client, -1, EAGAIN);
    return TRUE;
}

umockdev_shim_evdev *umockdev_shim_evdev_attach(umockdev_shim_testbed *shim, const char *devnode, const char *name,
                                                int accelerometer, int resolution, char *error, unsigned long error_length)
{
    struct umockdev_shim_evdev *device = g_new0(struct umockdev_shim_evdev, 1);
    device->testbed = g_object_ref(shim->testbed);
    snprintf(device->devnode, sizeof device->devnode, "%s", devnode);
    snprintf(device->name, sizeof device->name, "%s", name);
    device->accelerometer = accelerometer;
    device->resolution = resolution;
    device->handler = umockdev_ioctl_base_new();
    g_signal_connect(device->handler, "handle-ioctl", G_CALLBACK(on_ioctl), device);
    g_signal_connect(device->handler, "handle-read", G_CALLBACK(on_read), device);
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

void umockdev_shim_evdev_set_axes(umockdev_shim_evdev *device, int x, int y, int z)
{
    __atomic_store_n(&device->axes[0], x, __ATOMIC_SEQ_CST);
    __atomic_store_n(&device->axes[1], y, __ATOMIC_SEQ_CST);
    __atomic_store_n(&device->axes[2], z, __ATOMIC_SEQ_CST);
}

void umockdev_shim_evdev_set_near(umockdev_shim_evdev *device, int near)
{
    __atomic_store_n(&device->near, near, __ATOMIC_SEQ_CST);
}

int umockdev_shim_evdev_ioctls(const umockdev_shim_evdev *device)
{
    return __atomic_load_n(&device->ioctls, __ATOMIC_SEQ_CST);
}

void umockdev_shim_evdev_free(umockdev_shim_evdev *device)
{
    if (!device)
        return;
    umockdev_testbed_detach_ioctl(device->testbed, device->devnode, NULL);
    g_object_unref(device->handler);
    g_object_unref(device->testbed);
    g_free(device);
}
