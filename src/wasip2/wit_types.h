/* wit_types.h — made by tools/witgen.py from the WIT of WASI 0.2.12
   (../shared/spec/wasi-wit/v0.2.12); do not edit: `make wit` remakes it. */
#ifndef WEFT_WASIP2_WIT_TYPES_H
#define WEFT_WASIP2_WIT_TYPES_H

#include "../component/host.h"

/* The resource types, one cm_resource of each per instance state. */
enum {
    WP2_RES_IO_ERROR = 0, /* error */
    WP2_RES_IO_POLLABLE = 1, /* pollable */
    WP2_RES_IO_INPUT_STREAM = 2, /* input-stream */
    WP2_RES_IO_OUTPUT_STREAM = 3, /* output-stream */
    WP2_RES_CLI_TERMINAL_INPUT = 4, /* terminal-input */
    WP2_RES_CLI_TERMINAL_OUTPUT = 5, /* terminal-output */
    WP2_RES_FILESYSTEM_DESCRIPTOR = 6, /* descriptor */
    WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM = 7, /* directory-entry-stream */
    WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM = 8, /* resolve-address-stream */
    WP2_RES_SOCKETS_NETWORK = 9, /* network */
    WP2_RES_SOCKETS_TCP_SOCKET = 10, /* tcp-socket */
    WP2_RES_SOCKETS_UDP_SOCKET = 11, /* udp-socket */
    WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM = 12, /* incoming-datagram-stream */
    WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM = 13, /* outgoing-datagram-stream */
    WP2_RES_COUNT = 14
};

/* Table sizes (wit_types.c). */
enum {
    WP2_NNODES = 103,
    WP2_NFIELDS = 296,
    WP2_NMEMBERS = 27,
    WP2_NFUNCTYPES = 123,
    WP2_NFUNCS = 123,
    WP2_NHRES = 40,
    WP2_NTYPES = 41,
    WP2_NINSTANCES = 27
};

/* Case, label and flag values of the named variants, enums and flags. */
enum {
    WP2_IO_STREAM_ERROR_LAST_OPERATION_FAILED = 0, /* stream-error case */
    WP2_IO_STREAM_ERROR_CLOSED = 1, /* stream-error case */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_UNKNOWN = 0, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_BLOCK_DEVICE = 1, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_CHARACTER_DEVICE = 2, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_DIRECTORY = 3, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_FIFO = 4, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_SYMBOLIC_LINK = 5, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_REGULAR_FILE = 6, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_TYPE_SOCKET = 7, /* descriptor-type label */
    WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ = 1u << 0, /* descriptor-flags flag */
    WP2_FILESYSTEM_DESCRIPTOR_FLAGS_WRITE = 1u << 1, /* descriptor-flags flag */
    WP2_FILESYSTEM_DESCRIPTOR_FLAGS_FILE_INTEGRITY_SYNC = 1u << 2, /* descriptor-flags flag */
    WP2_FILESYSTEM_DESCRIPTOR_FLAGS_DATA_INTEGRITY_SYNC = 1u << 3, /* descriptor-flags flag */
    WP2_FILESYSTEM_DESCRIPTOR_FLAGS_REQUESTED_WRITE_SYNC = 1u << 4, /* descriptor-flags flag */
    WP2_FILESYSTEM_DESCRIPTOR_FLAGS_MUTATE_DIRECTORY = 1u << 5, /* descriptor-flags flag */
    WP2_FILESYSTEM_PATH_FLAGS_SYMLINK_FOLLOW = 1u << 0, /* path-flags flag */
    WP2_FILESYSTEM_OPEN_FLAGS_CREATE = 1u << 0, /* open-flags flag */
    WP2_FILESYSTEM_OPEN_FLAGS_DIRECTORY = 1u << 1, /* open-flags flag */
    WP2_FILESYSTEM_OPEN_FLAGS_EXCLUSIVE = 1u << 2, /* open-flags flag */
    WP2_FILESYSTEM_OPEN_FLAGS_TRUNCATE = 1u << 3, /* open-flags flag */
    WP2_FILESYSTEM_NEW_TIMESTAMP_NO_CHANGE = 0, /* new-timestamp case */
    WP2_FILESYSTEM_NEW_TIMESTAMP_NOW = 1, /* new-timestamp case */
    WP2_FILESYSTEM_NEW_TIMESTAMP_TIMESTAMP = 2, /* new-timestamp case */
    WP2_FILESYSTEM_ERROR_CODE_ACCESS = 0, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_WOULD_BLOCK = 1, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_ALREADY = 2, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_BAD_DESCRIPTOR = 3, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_BUSY = 4, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_DEADLOCK = 5, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_QUOTA = 6, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_EXIST = 7, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_FILE_TOO_LARGE = 8, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_ILLEGAL_BYTE_SEQUENCE = 9, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_IN_PROGRESS = 10, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_INTERRUPTED = 11, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_INVALID = 12, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_IO = 13, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_IS_DIRECTORY = 14, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_LOOP = 15, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_TOO_MANY_LINKS = 16, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_MESSAGE_SIZE = 17, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NAME_TOO_LONG = 18, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NO_DEVICE = 19, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NO_ENTRY = 20, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NO_LOCK = 21, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_INSUFFICIENT_MEMORY = 22, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_INSUFFICIENT_SPACE = 23, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NOT_DIRECTORY = 24, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NOT_EMPTY = 25, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NOT_RECOVERABLE = 26, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_UNSUPPORTED = 27, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NO_TTY = 28, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NO_SUCH_DEVICE = 29, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_OVERFLOW = 30, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED = 31, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_PIPE = 32, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_READ_ONLY = 33, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_INVALID_SEEK = 34, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_TEXT_FILE_BUSY = 35, /* error-code label */
    WP2_FILESYSTEM_ERROR_CODE_CROSS_DEVICE = 36, /* error-code label */
    WP2_FILESYSTEM_ADVICE_NORMAL = 0, /* advice label */
    WP2_FILESYSTEM_ADVICE_SEQUENTIAL = 1, /* advice label */
    WP2_FILESYSTEM_ADVICE_RANDOM = 2, /* advice label */
    WP2_FILESYSTEM_ADVICE_WILL_NEED = 3, /* advice label */
    WP2_FILESYSTEM_ADVICE_DONT_NEED = 4, /* advice label */
    WP2_FILESYSTEM_ADVICE_NO_REUSE = 5, /* advice label */
    WP2_SOCKETS_ERROR_CODE_UNKNOWN = 0, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED = 1, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_NOT_SUPPORTED = 2, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT = 3, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_OUT_OF_MEMORY = 4, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_TIMEOUT = 5, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT = 6, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS = 7, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK = 8, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_INVALID_STATE = 9, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_NEW_SOCKET_LIMIT = 10, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_ADDRESS_NOT_BINDABLE = 11, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_ADDRESS_IN_USE = 12, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_REMOTE_UNREACHABLE = 13, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_CONNECTION_REFUSED = 14, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_CONNECTION_RESET = 15, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_CONNECTION_ABORTED = 16, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_DATAGRAM_TOO_LARGE = 17, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_NAME_UNRESOLVABLE = 18, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_TEMPORARY_RESOLVER_FAILURE = 19, /* error-code label */
    WP2_SOCKETS_ERROR_CODE_PERMANENT_RESOLVER_FAILURE = 20, /* error-code label */
    WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4 = 0, /* ip-address-family label */
    WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV6 = 1, /* ip-address-family label */
    WP2_SOCKETS_IP_ADDRESS_IPV4 = 0, /* ip-address case */
    WP2_SOCKETS_IP_ADDRESS_IPV6 = 1, /* ip-address case */
    WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV4 = 0, /* ip-socket-address case */
    WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV6 = 1, /* ip-socket-address case */
    WP2_SOCKETS_SHUTDOWN_TYPE_RECEIVE = 0, /* shutdown-type label */
    WP2_SOCKETS_SHUTDOWN_TYPE_SEND = 1, /* shutdown-type label */
    WP2_SOCKETS_SHUTDOWN_TYPE_BOTH = 2, /* shutdown-type label */
};

/* The host functions (cli.c, io.c, clocks.c, random.c, filesystem.c) and resource destructors. */
weft_status wp2_io_error_to_debug_string(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_pollable_ready(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_pollable_block(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_poll_poll(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_input_stream_read(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_input_stream_blocking_read(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_input_stream_skip(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_input_stream_blocking_skip(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_input_stream_subscribe(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_check_write(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_write(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_blocking_write_and_flush(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_flush(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_blocking_flush(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_subscribe(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_write_zeroes(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_blocking_write_zeroes_and_flush(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_splice(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_output_stream_blocking_splice(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_environment_get_environment(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_environment_get_arguments(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_environment_initial_cwd(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_exit_exit(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_exit_exit_with_code(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_stdin_get_stdin(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_stdout_get_stdout(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_stderr_get_stderr(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_terminal_stdin_get_terminal_stdin(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_terminal_stdout_get_terminal_stdout(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_cli_terminal_stderr_get_terminal_stderr(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_clocks_monotonic_clock_now(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_clocks_monotonic_clock_resolution(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_clocks_monotonic_clock_subscribe_instant(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_clocks_monotonic_clock_subscribe_duration(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_clocks_wall_clock_now(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_clocks_wall_clock_resolution(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_random_insecure_seed_insecure_seed(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_random_insecure_get_insecure_random_bytes(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_random_insecure_get_insecure_random_u64(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_random_random_get_random_bytes(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_random_random_get_random_u64(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_read_via_stream(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_write_via_stream(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_append_via_stream(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_advise(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_sync_data(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_get_flags(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_get_type(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_set_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_set_times(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_read(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_write(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_read_directory(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_sync(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_create_directory_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_stat(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_stat_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_set_times_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_link_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_open_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_readlink_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_remove_directory_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_rename_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_symlink_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_unlink_file_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_is_same_object(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_metadata_hash(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_descriptor_metadata_hash_at(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_directory_entry_stream_read_directory_entry(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_types_filesystem_error_code(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_start_bind(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_finish_bind(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_start_connect(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_finish_connect(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_start_listen(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_finish_listen(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_accept(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_local_address(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_remote_address(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_is_listening(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_address_family(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_listen_backlog_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_keep_alive_enabled(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_keep_alive_enabled(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_keep_alive_idle_time(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_keep_alive_idle_time(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_keep_alive_interval(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_keep_alive_interval(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_keep_alive_count(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_keep_alive_count(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_hop_limit(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_hop_limit(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_receive_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_receive_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_send_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_set_send_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_subscribe(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_socket_shutdown(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_start_bind(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_finish_bind(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_stream(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_local_address(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_remote_address(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_address_family(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_unicast_hop_limit(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_set_unicast_hop_limit(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_receive_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_set_receive_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_send_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_set_send_buffer_size(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_socket_subscribe(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_incoming_datagram_stream_receive(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_incoming_datagram_stream_subscribe(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_outgoing_datagram_stream_check_send(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_outgoing_datagram_stream_send(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_outgoing_datagram_stream_subscribe(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_filesystem_preopens_get_directories(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_instance_network_instance_network(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_resolve_address_stream_resolve_next_address(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_resolve_address_stream_subscribe(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_ip_name_lookup_resolve_addresses(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_tcp_create_socket_create_tcp_socket(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_sockets_udp_create_socket_create_udp_socket(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);
weft_status wp2_io_error_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_io_pollable_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_io_input_stream_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_io_output_stream_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_cli_terminal_input_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_cli_terminal_output_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_filesystem_descriptor_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_filesystem_directory_entry_stream_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_sockets_resolve_address_stream_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_sockets_network_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_sockets_tcp_socket_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_sockets_udp_socket_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_sockets_incoming_datagram_stream_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
weft_status wp2_sockets_outgoing_datagram_stream_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);

#endif
