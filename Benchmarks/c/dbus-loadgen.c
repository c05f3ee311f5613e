// The D-Bus side's callers: each caller opens its own connection to the private bus and
// calls org.scenecoordinator.Bench.Echo("{\"n\":1}") through dbus-daemon, waiting for each
// answer before the next call (the same closed loop as loadgen).
//
// Usage: dbus-loadgen BUS-ADDRESS CALLERS SECONDS|xCOUNT. Output: see harness.h.
#include <dbus/dbus.h>

#include "harness.h"

#define NAME "org.scenecoordinator.Bench"

static const char *address;

static int setup(worker *w) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_connection_open_private(address, &error);
    if (bus == NULL || !dbus_bus_register(bus, &error)) {
        fprintf(stderr, "dbus-loadgen: %s\n", error.message ? error.message : "cannot connect");
        return -1;
    }
    dbus_connection_set_exit_on_disconnect(bus, FALSE);
    w->state = bus;
    return 0;
}

static int call(worker *w, long number) {
    (void)number;
    DBusConnection *bus = w->state;
    DBusMessage *message = dbus_message_new_method_call(NAME, "/org/scenecoordinator/Bench", NAME, "Echo");
    const char *text = "{\"n\":1}";
    dbus_message_append_args(message, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, message, 10000, &error);
    dbus_message_unref(message);
    if (reply == NULL) {
        fprintf(stderr, "dbus-loadgen: %s\n", error.message);
        dbus_error_free(&error);
        return -1;
    }
    dbus_message_unref(reply);
    return 0;
}

static void teardown(worker *w) {
    if (w->state) {
        dbus_connection_close(w->state);
        dbus_connection_unref(w->state);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: dbus-loadgen BUS-ADDRESS CALLERS SECONDS|xCOUNT\n");
        return 2;
    }
    dbus_threads_init_default();
    address = argv[1];
    return harness_run(atoi(argv[2]), argv[3], setup, call, teardown);
}
