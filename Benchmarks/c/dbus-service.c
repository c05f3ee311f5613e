// The D-Bus side of the relay comparison: a service on a private bus that answers
// org.scenecoordinator.Bench.Echo(s) -> s with the string it was given, in order, from
// one thread (like the C scene). Usage: dbus-service BUS-ADDRESS
// Prints "ready" once it owns its name.
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

#define NAME "org.scenecoordinator.Bench"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: dbus-service BUS-ADDRESS\n");
        return 2;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_connection_open_private(argv[1], &error);
    if (bus == NULL || !dbus_bus_register(bus, &error)) {
        fprintf(stderr, "dbus-service: %s\n", error.message);
        return 1;
    }
    dbus_connection_set_exit_on_disconnect(bus, FALSE);
    if (dbus_bus_request_name(bus, NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "dbus-service: cannot own %s\n", NAME);
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    while (dbus_connection_read_write(bus, -1)) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus)) != NULL) {
            if (dbus_message_is_method_call(message, NAME, "Echo")) {
                const char *text = "";
                dbus_message_get_args(message, NULL, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
                DBusMessage *reply = dbus_message_new_method_return(message);
                dbus_message_append_args(reply, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
                dbus_connection_send(bus, reply, NULL);
                dbus_message_unref(reply);
            } else if (dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL) {
                DBusMessage *reply = dbus_message_new_error(message, DBUS_ERROR_UNKNOWN_METHOD, "unknown method");
                dbus_connection_send(bus, reply, NULL);
                dbus_message_unref(reply);
            }
            dbus_message_unref(message);
        }
        dbus_connection_flush(bus);
    }
    return 0;
}
