// The C boundary of orientd. Swift sees only opaque handles, C strings and negative errno values,
// so a port to libiio 1.0 (new header, new context and attribute calls) touches only this target.
#ifndef ORIENTD_SHIM_H
#define ORIENTD_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct orientd_iio_context orientd_iio_context;

/// Opens an IIO context ("local:", "ip:host[:port]", ...). On failure returns NULL and stores a
/// positive errno value in *error. When libiio refuses "local:" though /sys/bus/iio/devices can
/// be listed, the context is read from sysfs by the shim (`orientd_iio_refusal`).
orientd_iio_context *orientd_iio_open(const char *uri, int *error);
void orientd_iio_close(orientd_iio_context *context);
/// Why libiio refused the local context, and the device it choked on where one is found, when
/// the shim reads the machine's IIO devices from sysfs itself instead (polled only: no device of
/// such a context is buffer capable); NULL for a context libiio opened.
const char *orientd_iio_refusal(const orientd_iio_context *context);

unsigned orientd_iio_device_count(const orientd_iio_context *context);
/// Kernel id ("iio:device0"), driver name ("accel_3d", may be NULL) and label (may be NULL).
const char *orientd_iio_device_id(const orientd_iio_context *context, unsigned device);
const char *orientd_iio_device_name(const orientd_iio_context *context, unsigned device);
const char *orientd_iio_device_label(const orientd_iio_context *context, unsigned device);
/// Whether the device has an input channel with this id ("accel_x").
bool orientd_iio_device_has_input_channel(const orientd_iio_context *context, unsigned device,
                                          const char *channel);

/// Reads a channel attribute by its IIO name ("raw", "scale", "offset"). Per-axis attributes
/// take precedence over the shared ones (libiio resolves in_accel_x_scale before in_accel_scale).
/// Returns the length of the NUL-terminated text in buffer, or a negative errno value.
ssize_t orientd_iio_read_channel_attribute(const orientd_iio_context *context, unsigned device,
                                           const char *channel, const char *attribute,
                                           char *buffer, size_t length);

/// Reads an attribute by its sysfs file name ("mount_matrix", "in_accel_mount_matrix",
/// "in_mount_matrix", "sampling_frequency"), wherever libiio has filed it (device attribute or
/// the attribute of some channel). Returns the text length, -ENOENT when there is no such file,
/// or another negative errno value.
ssize_t orientd_iio_read_attribute_file(const orientd_iio_context *context, unsigned device,
                                        const char *file, char *buffer, size_t length);

/// Whether the device has the attribute in sysfs file `file`, from libiio's list (no read).
bool orientd_iio_has_attribute_file(const orientd_iio_context *context, unsigned device, const char *file);
/// Writes an attribute by its sysfs file name ("sampling_frequency", "in_accel_hysteresis"),
/// wherever libiio has filed it. Returns 0, -ENOENT when there is no such file, or another
/// negative errno value.
int orientd_iio_write_attribute_file(const orientd_iio_context *context, unsigned device,
                                     const char *file, const char *value);

typedef struct orientd_iio_buffer orientd_iio_buffer;

/// Whether the device is a trigger (triggerN), not a sensor.
bool orientd_iio_device_is_trigger(const orientd_iio_context *context, unsigned device);
/// The device's current trigger by name into `name` ("" when none is set); returns its length, or
/// a negative errno value when the device takes no trigger (no trigger/current_trigger file).
ssize_t orientd_iio_device_current_trigger(const orientd_iio_context *context, unsigned device,
                                           char *name, size_t length);
/// Sets the device's trigger to the trigger named `name`. Returns 0 or a negative errno value.
int orientd_iio_device_set_trigger_named(const orientd_iio_context *context, unsigned device, const char *name);

/// Whether accel_x, accel_y and accel_z of the device are scan elements: it can fill a buffer.
bool orientd_iio_device_is_buffer_capable(const orientd_iio_context *context, unsigned device);
/// Enables the three axes (and the device's timestamp channel, if any) and starts buffered
/// capture, the kernel keeping up to `kernel_samples` scans until they are taken. On failure
/// returns NULL and stores a positive errno value in *error.
orientd_iio_buffer *orientd_iio_buffer_open(const orientd_iio_context *context, unsigned device,
                                            unsigned kernel_samples, int *error);
bool orientd_iio_buffer_has_timestamps(const orientd_iio_buffer *buffer);
/// The descriptor that polls readable when a scan waits (a local buffer's /dev/iio:deviceN), or a
/// negative errno value (over iiod there is none).
int orientd_iio_buffer_descriptor(const orientd_iio_buffer *buffer);
/// Takes the scans waiting, at most `max`: raw values (three per scan) into xyz, and the kernel's
/// timestamps in nanoseconds (0 without) into timestamps. A local buffer is drained without
/// blocking; over iiod, where a refill may wait for the next scan, refills go on for `budget`
/// seconds. Returns how many (0 when none), or a negative errno value when the first refill fails.
ssize_t orientd_iio_buffer_take(orientd_iio_buffer *buffer, double *xyz, int64_t *timestamps, size_t max,
                                double budget);
/// Stops capture (the kernel's buffer is disabled) and frees the buffer.
void orientd_iio_buffer_close(orientd_iio_buffer *buffer);

/// Reads a sysfs file whole (the last path component is not followed if it is a symlink): the text
/// NUL-terminated without its trailing newline. Returns its length counting the NUL, or a negative
/// errno value (-EFBIG when it does not fit: never read in part).
ssize_t orientd_sysfs_read_path(const char *path, char *buffer, size_t length);

/// The event descriptor of the IIO device SYSNAME ("iio:device0"): IIO_GET_EVENT_FD_IOCTL on
/// /dev/SYSNAME, non-blocking and close-on-exec. Returns it, or a negative errno value.
int orientd_iio_event_open(const char *sysname);
/// Writes VALUE to the file FILE of /sys/bus/iio/devices/SYSNAME/events ("in_accel_roc_either_en"),
/// the last path component not followed if it is a symlink. Returns 0 or a negative errno value.
int orientd_iio_event_write(const char *sysname, const char *file, const char *value);
/// Reads every struct iio_event_data record waiting on an event descriptor without blocking.
/// Returns how many (0 when none), -EPIPE when the descriptor was closed at the other end, or
/// another negative errno value.
ssize_t orientd_iio_event_drain(int events);

/// Text for an errno value as libiio words it.
void orientd_iio_strerror(int error, char *buffer, size_t length);

/// Looks up a udev property (e.g. ACCEL_MOUNT_MATRIX) of the device SUBSYSTEM/SYSNAME on this
/// machine. Returns the text length, -ENOENT when the device or the property is absent, or
/// another negative errno value.
ssize_t orientd_udev_device_property(const char *subsystem, const char *sysname,
                                     const char *property, char *buffer, size_t length);

/// The key systemd's 60-sensor.rules looks the IIO device SYSNAME up by in the hwdb:
/// "sensor:[LABEL:]modalias:MODALIAS:DMI", MODALIAS being the device's own modalias attribute or
/// that of its first parent in subsystem usb, i2c or platform, DMI /sys/class/dmi/id/modalias.
/// Returns the text length, -ENOENT when the device is unknown, -ENODEV when it has no such
/// parent (the rule does not apply), or another negative errno value.
ssize_t orientd_udev_sensor_hwdb_match(const char *sysname, char *buffer, size_t length);

/// Whether udev has processed the device SUBSYSTEM/SYSNAME (run its rules: 1) or not yet (0);
/// -ENOENT when there is no such device.
int orientd_udev_device_is_initialized(const char *subsystem, const char *sysname);

/// The /sys path of the device SUBSYSTEM/SYSNAME; returns its length or a negative errno value.
ssize_t orientd_udev_device_syspath(const char *subsystem, const char *sysname, char *buffer, size_t length);

/// ABS_X, ABS_Y and ABS_Z of the input device node DEVNODE ("/dev/input/event7") now, and ABS_X's
/// resolution (units per g for an accelerometer, 0 when the driver gives none): the node is opened
/// for these three EVIOCGABS and closed. Returns 0, or a negative errno value.
int orientd_evdev_read_axes_at(const char *devnode, int32_t values[3], int32_t *resolution);
/// SW_FRONT_PROXIMITY of the device node DEVNODE now: 1 near, 0 far, or a negative errno value.
/// The node is opened for this one question (an open, one EVIOCGSW, a close: nothing held between polls).
int orientd_evdev_proximity_at(const char *devnode);

/// The event device nodes ("/dev/input/event7") of the devices in subsystem input whose udev
/// PROPERTY is "1" (ID_INPUT_ACCELEROMETER, ID_INPUT_SWITCH), in the kernel's order, each ended
/// by a NUL in buffer (those that do not fit are left out). Returns how many, or a negative errno
/// value.
int orientd_udev_input_devices(const char *property, char *buffer, size_t length);

typedef struct orientd_udev_monitor orientd_udev_monitor;

/// The most subsystems one monitor follows.
#define ORIENTD_UDEV_SUBSYSTEMS 4

/// Listens for udev's events about devices of the `count` SUBSYSTEMS ("iio", "hwmon", "input"; at
/// most ORIENTD_UDEV_SUBSYSTEMS). On failure returns NULL and stores a positive errno value in *error.
orientd_udev_monitor *orientd_udev_monitor_open(const char *const *subsystems, size_t count, int *error);
/// The descriptor to poll for readability.
int orientd_udev_monitor_fd(const orientd_udev_monitor *monitor);
/// Takes one event, if there is one: its action ("add", "remove", "change", ...), the device's
/// sysname ("iio:device0") and subsystem (all empty for another subsystem's event). Returns 1
/// with an event, 0 without.
int orientd_udev_monitor_receive(orientd_udev_monitor *monitor, char *action, size_t action_length,
                                 char *sysname, size_t sysname_length, char *subsystem, size_t subsystem_length);
void orientd_udev_monitor_close(orientd_udev_monitor *monitor);

#endif
