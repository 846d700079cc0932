#define _GNU_SOURCE
#include "orientd_bus.h"
#include "sd_bus_timeout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#define NAME "net.hadess.SensorProxy"
#define PATH "/net/hadess/SensorProxy"
#define COMPASS_PATH "/net/hadess/SensorProxy/Compass"
#define COMPASS_INTERFACE "net.hadess.SensorProxy.Compass"
#define POLKIT_ACTION "net.hadess.SensorProxy.claim-sensor"

struct orientd_bus {
    sd_bus *bus;
    orientd_bus_callbacks callbacks;
};

static void copy_text(char *to, size_t length, const char *from)
{
    snprintf(to, length, "%s", from ? from : "");
}

static sd_bus_message *message_of(orientd_bus_call *call) { return (sd_bus_message *)call; }

// MARK: Properties

/// The properties by name and D-Bus type, in enum orientd_bus_property's order.
static const struct {
    const char *name;
    char type;
} properties[] = {
    { "HasAccelerometer", 'b' }, { "AccelerometerOrientation", 's' }, { "AccelerometerTilt", 's' },
    { "HasAmbientLight", 'b' }, { "LightLevelUnit", 's' }, { "LightLevel", 'd' },
    { "HasProximity", 'b' }, { "ProximityNear", 'b' },
    { "HasCompass", 'b' }, { "CompassHeading", 'd' },
};
#define PROPERTY_COUNT (int)(sizeof properties / sizeof properties[0])

static int property_named(const char *name)
{
    for (int i = 0; name && i < PROPERTY_COUNT; i++)
        if (!strcmp(properties[i].name, name)) return i;
    return -1;
}

/// Appends the current value of `property`, as Swift says it is.
static int append_property(sd_bus_message *m, struct orientd_bus *b, int property)
{
    if (property < 0 || property >= PROPERTY_COUNT) return -ENOENT;
    orientd_bus_value value = { 0 };
    b->callbacks.get_property(b->callbacks.context, property, &value);
    value.text[sizeof value.text - 1] = 0;
    switch (properties[property].type) {
    case 'b': return sd_bus_message_append(m, "b", (int)value.boolean);
    case 'd': return sd_bus_message_append(m, "d", value.number);
    default: return sd_bus_message_append(m, "s", value.text);
    }
}

static int get_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
    (void)bus; (void)path; (void)interface; (void)error;
    return append_property(reply, userdata, property_named(property));
}

void orientd_bus_emit(orientd_bus *b, const int *names, size_t count, const char *destination)
{
    if (count == 0 || names[0] < 0 || names[0] >= PROPERTY_COUNT) return;
    bool compass = names[0] >= ORIENTD_BUS_HAS_COMPASS;
    sd_bus_message *s = NULL;
    int r = sd_bus_message_new_signal(b->bus, &s, compass ? COMPASS_PATH : PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged");
    if (r >= 0) r = sd_bus_message_set_destination(s, destination);
    if (r >= 0) r = sd_bus_message_append(s, "s", compass ? COMPASS_INTERFACE : NAME);
    if (r >= 0) r = sd_bus_message_open_container(s, 'a', "{sv}");
    for (size_t i = 0; r >= 0 && i < count; i++) {
        if (names[i] < 0 || names[i] >= PROPERTY_COUNT) { r = -EINVAL; break; }
        const char type[2] = { properties[names[i]].type, 0 };
        r = sd_bus_message_open_container(s, 'e', "sv");
        if (r >= 0) r = sd_bus_message_append(s, "s", properties[names[i]].name);
        if (r >= 0) r = sd_bus_message_open_container(s, 'v', type);
        if (r >= 0) r = append_property(s, b, names[i]);
        if (r >= 0) r = sd_bus_message_close_container(s);
        if (r >= 0) r = sd_bus_message_close_container(s);
    }
    if (r >= 0) r = sd_bus_message_close_container(s);
    if (r >= 0) r = sd_bus_message_append(s, "as", 0);
    if (r >= 0) sd_bus_send(b->bus, s, NULL);
    sd_bus_message_unref(s);
}

// MARK: Calls

static int sensor_of(const char *member)
{
    const char *name = member + (strncmp(member, "Claim", 5) == 0 ? 5 : 7);
    if (!strcmp(name, "Accelerometer")) return ORIENTD_BUS_ACCELEROMETER;
    if (!strcmp(name, "Light")) return ORIENTD_BUS_LIGHT;
    if (!strcmp(name, "Proximity")) return ORIENTD_BUS_PROXIMITY;
    return ORIENTD_BUS_COMPASS;
}

/// Every Claim… and Release…: handed to Swift, which answers it now or later.
static int on_method(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
    (void)error;
    struct orientd_bus *b = userdata;
    const char *sender = sd_bus_message_get_sender(m);
    const char *member = sd_bus_message_get_member(m);
    if (!sender || !member) return sd_bus_reply_method_errno(m, EINVAL, NULL);
    b->callbacks.called(b->callbacks.context, (orientd_bus_call *)sd_bus_message_ref(m), sender, sensor_of(member),
                        strncmp(member, "Claim", 5) == 0);
    return 1;
}

void orientd_bus_reply(orientd_bus_call *call)
{
    sd_bus_reply_method_return(message_of(call), NULL);
    sd_bus_message_unref(message_of(call));
}

void orientd_bus_refuse(orientd_bus_call *call, const char *name, const char *message)
{
    sd_bus_reply_method_errorf(message_of(call), name, "%s", message);
    sd_bus_message_unref(message_of(call));
}

void orientd_bus_forget(orientd_bus_call *call) { sd_bus_message_unref(message_of(call)); }

/// A client left the bus (NameOwnerChanged with no new owner).
static int on_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct orientd_bus *b = userdata;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0 || !name || name[0] != ':' || (new_owner && *new_owner))
        return 0;
    b->callbacks.client_left(b->callbacks.context, name);
    return 0;
}

// MARK: polkit

/// A question to polkit in flight: whom to tell of the answer.
struct polkit_question {
    struct orientd_bus *bus;
    orientd_bus_call *call;
};

static bool means_polkit_is_down(const sd_bus_error *failure)
{
    return sd_bus_error_has_names(failure, SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_NAME_HAS_NO_OWNER,
                                  SD_BUS_ERROR_NO_REPLY, SD_BUS_ERROR_TIMEOUT, SD_BUS_ERROR_DISCONNECTED);
}

static int on_polkit_answer(sd_bus_message *reply, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct polkit_question *question = userdata;
    struct orientd_bus *b = question->bus;
    const sd_bus_error *failure = sd_bus_message_get_error(reply);
    int authorized = 0, challenge = 0;
    if (failure) {
        int answer = means_polkit_is_down(failure) ? ORIENTD_BUS_POLKIT_UNREACHABLE : ORIENTD_BUS_POLKIT_FAILED;
        b->callbacks.polkit_answered(b->callbacks.context, question->call, answer, failure->message ? failure->message : failure->name);
    } else if (sd_bus_message_enter_container(reply, 'r', "bba{ss}") < 0 || sd_bus_message_read(reply, "bb", &authorized, &challenge) < 0) {
        b->callbacks.polkit_answered(b->callbacks.context, question->call, ORIENTD_BUS_POLKIT_FAILED, "polkit's answer could not be read");
    } else {
        b->callbacks.polkit_answered(b->callbacks.context, question->call,
                                     authorized ? ORIENTD_BUS_POLKIT_AUTHORIZED : ORIENTD_BUS_POLKIT_DENIED, "");
    }
    return 1;
}

int orientd_bus_ask_polkit(orientd_bus *b, orientd_bus_call *call)
{
    struct polkit_question *question = malloc(sizeof *question);
    if (!question) return -ENOMEM;
    *question = (struct polkit_question){ .bus = b, .call = call };
    sd_bus_slot *slot = NULL;
    int r = sd_bus_call_method_async(
        b->bus, &slot, "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
        "org.freedesktop.PolicyKit1.Authority", "CheckAuthorization", on_polkit_answer, question,
        "(sa{sv})sa{ss}us", "system-bus-name", 1, "name", "s", sd_bus_message_get_sender(message_of(call)), POLKIT_ACTION, 0, 0, "");
    if (r < 0) {
        free(question);
        return r;
    }
    // The question is freed with its slot: after the answer, or with the connection.
    sd_bus_slot_set_destroy_callback(slot, free);
    sd_bus_slot_set_floating(slot, 1);
    sd_bus_slot_unref(slot);
    return 0;
}

// MARK: The objects

// Every property is read through get_property, which asks Swift; the offsets are unused.

static const sd_bus_vtable sensor_proxy_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasAccelerometer", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("AccelerometerOrientation", "s", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("AccelerometerTilt", "s", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("HasAmbientLight", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("LightLevelUnit", "s", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("LightLevel", "d", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("HasProximity", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("ProximityNear", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    // Without SD_BUS_VTABLE_UNPRIVILEGED sd-bus would demand CAP_SYS_ADMIN of every caller.
    SD_BUS_METHOD("ClaimAccelerometer", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseAccelerometer", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ClaimLight", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseLight", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ClaimProximity", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseProximity", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable compass_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasCompass", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("CompassHeading", "d", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_METHOD("ClaimCompass", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseCompass", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

// MARK: The name

static int on_name_requested(sd_bus_message *reply, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct orientd_bus *b = userdata;
    const sd_bus_error *failure = sd_bus_message_get_error(reply);
    uint32_t result = 0;
    if (failure) {
        b->callbacks.name_changed(b->callbacks.context, ORIENTD_BUS_NAME_REFUSED, failure->message ? failure->message : failure->name);
    } else if (sd_bus_message_read(reply, "u", &result) >= 0 && result == 2 /* DBUS_REQUEST_NAME_REPLY_IN_QUEUE */) {
        b->callbacks.name_changed(b->callbacks.context, ORIENTD_BUS_NAME_QUEUED, "");
    }
    // Owning it is reported by NameAcquired, which the bus sends in either case.
    return 1;
}

static int on_name_signal(sd_bus_message *m, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct orientd_bus *b = userdata;
    const char *name = NULL;
    if (sd_bus_message_read(m, "s", &name) < 0 || !name || strcmp(name, NAME) != 0) return 0;
    bool acquired = strcmp(sd_bus_message_get_member(m), "NameAcquired") == 0;
    b->callbacks.name_changed(b->callbacks.context, acquired ? ORIENTD_BUS_NAME_OWNED : ORIENTD_BUS_NAME_LOST, "");
    return 0;
}

orientd_bus *orientd_bus_open(orientd_bus_callbacks callbacks, char *error, size_t error_length)
{
    struct orientd_bus *b = calloc(1, sizeof *b);
    if (!b) {
        copy_text(error, error_length, strerror(ENOMEM));
        return NULL;
    }
    b->callbacks = callbacks;

    const char *step = "connect to the system bus";
    int r = sd_bus_open_system(&b->bus);
    if (r >= 0) {
        step = "serve " PATH;
        r = sd_bus_add_object_vtable(b->bus, NULL, PATH, NAME, sensor_proxy_vtable, b);
    }
    if (r >= 0) r = sd_bus_add_object_vtable(b->bus, NULL, COMPASS_PATH, COMPASS_INTERFACE, compass_vtable, b);
    if (r >= 0) {
        step = "follow the bus name";
        r = sd_bus_match_signal(b->bus, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameAcquired", on_name_signal, b);
    }
    if (r >= 0)
        r = sd_bus_match_signal(b->bus, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameLost", on_name_signal, b);
    if (r >= 0) {
        // Installed before any claim can arrive (this call waits for the bus's answer).
        step = "follow clients leaving the bus";
        r = sd_bus_add_match(b->bus, NULL,
                             "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                             "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''",
                             on_owner_changed, b);
    }
    if (r < 0) {
        snprintf(error, error_length, "cannot %s: %s", step, strerror(-r));
        orientd_bus_close(b);
        return NULL;
    }
    return b;
}

int orientd_bus_request_name(orientd_bus *b)
{
    // Never SD_BUS_NAME_ALLOW_REPLACEMENT: another service must not take the name from orientd.
    return sd_bus_request_name_async(b->bus, NULL, NAME, SD_BUS_NAME_REPLACE_EXISTING | SD_BUS_NAME_QUEUE, on_name_requested, b);
}

void orientd_bus_close(orientd_bus *b)
{
    if (!b) return;
    // polkit questions still in flight are dropped with the connection (freed with their slots).
    sd_bus_flush_close_unref(b->bus);
    free(b);
}

int orientd_bus_name_pid(orientd_bus *b, const char *name, int *pid, char *unique, size_t unique_length)
{
    sd_bus_creds *creds = NULL;
    int r = sd_bus_get_name_creds(b->bus, name, SD_BUS_CREDS_PID | SD_BUS_CREDS_UNIQUE_NAME, &creds);
    if (r < 0) return r;
    pid_t found = 0;
    const char *owner = NULL;
    r = sd_bus_creds_get_pid(creds, &found);
    if (r >= 0) {
        *pid = (int)found;
        if (unique && unique_length > 0) copy_text(unique, unique_length, sd_bus_creds_get_unique_name(creds, &owner) >= 0 ? owner : "");
    }
    sd_bus_creds_unref(creds);
    return r < 0 ? r : 0;
}

// MARK: The event loop's side

int orientd_bus_fd(orientd_bus *b) { return sd_bus_get_fd(b->bus); }

short orientd_bus_events(orientd_bus *b)
{
    int events = sd_bus_get_events(b->bus);
    return events < 0 ? 0 : (short)events;
}

int orientd_sd_bus_timeout_ms(sd_bus *bus)
{
    uint64_t until = 0;
    if (sd_bus_get_timeout(bus, &until) < 0 || until == UINT64_MAX) return -1;
    // sd-bus's deadlines are on CLOCK_MONOTONIC.
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    if (until <= now_us) return 0;
    uint64_t ms = (until - now_us + 999) / 1000;
    return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

int orientd_bus_timeout_ms(orientd_bus *b) { return orientd_sd_bus_timeout_ms(b->bus); }

int orientd_bus_process(orientd_bus *b)
{
    // A bounded batch: under a flood of messages udev's events and the sensors' news still get
    // their turn (with messages left, sd-bus's timeout is 0 and the loop comes straight back).
    for (int i = 0; i < 64; i++) {
        int r = sd_bus_process(b->bus, NULL);
        if (r <= 0) return r;
    }
    return 0;
}
