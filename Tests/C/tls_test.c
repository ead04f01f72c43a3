/*
 * https from C against a real TLS server with a CA of the test's own: which CA certificates
 * the library verifies the server with (the "ca_file" option; else CURL_CA_BUNDLE, else
 * SSL_CERT_FILE and SSL_CERT_DIR, read when the client is opened; else the system's bundle),
 * and what the errors say when that fails: CF_ERR_NETWORK, naming the bundle and where it
 * came from, and what to set.
 *
 * The server: bindings/python/tests/tls_front.py run as a program ($PYTHON, default python3;
 * it runs openssl), which makes a CA, a server certificate it signs for 127.0.0.1 and a
 * second CA that signed nothing, in a folder of this test's, and passes each decrypted
 * connection to a catfacts-mock of this test's. The test waits for the lines it prints.
 *
 * "No CA bundle on the machine": an empty tmpfs over /etc/ssl (and /etc/pki) in a mount
 * namespace of this process's own (unshare at the start of main, while it has one thread,
 * so every library thread inherits it), mounted for that test alone. Needs root; without it
 * that test is skipped and says why.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The TLS front: its https URL, the CA that signed its certificate, one that did not, and the
 * CA hashed in a folder for SSL_CERT_DIR. */
static char front_url[128], ca_pem[256], other_ca_pem[256], ca_dir[256];
static char ca_folder[64];
static pid_t front_pid = -1;

/* Why the no-bundle test cannot run, or NULL when it can. */
static const char *no_mounts = NULL;

/* ---- the TLS front ---- */

/* Copies the rest of `line` after `prefix` into value; 0, or -1 when line does not start with it. */
static int take_value(const char *line, const char *prefix, char *value, size_t size) {
    size_t length = strlen(prefix);
    if (strncmp(line, prefix, length) != 0 || line[length] == '\0') return -1;
    snprintf(value, size, "%s", line + length);
    return 0;
}

/* Starts tls_front.py before the mock at mock_url; waits for its four lines ("listening on
 * URL", "ca PATH", "other-ca PATH", "ca-dir PATH") for at most harness_hang_s(). Returns 0, or
 * -1 after saying why on stderr. */
static int start_front(const char *mock_url) {
    if (make_temp_folder("tls", ca_folder) != 0) return -1;
    const char *python = getenv("PYTHON");
    if (python == NULL || python[0] == '\0') python = "python3";
    char *argv[] = {(char *)python, "bindings/python/tests/tls_front.py", (char *)mock_url, ca_folder, NULL};
    int fd = -1;
    front_pid = start_child("start_front", argv, &fd);
    if (front_pid < 0) return -1;
    char text[2048];
    const char *why = read_lines(fd, 4, now_seconds() + harness_hang_s(), text, sizeof text);
    close(fd);
    if (why == NULL) {
        char *saveptr = NULL;
        char *line[4];
        line[0] = strtok_r(text, "\n", &saveptr);
        for (int i = 1; i < 4; i++) line[i] = strtok_r(NULL, "\n", &saveptr);
        if (line[3] == NULL || take_value(line[0], "listening on ", front_url, sizeof front_url) != 0 ||
            take_value(line[1], "ca ", ca_pem, sizeof ca_pem) != 0 ||
            take_value(line[2], "other-ca ", other_ca_pem, sizeof other_ca_pem) != 0 ||
            take_value(line[3], "ca-dir ", ca_dir, sizeof ca_dir) != 0) {
            why = "its first lines are not \"listening on URL\", \"ca PATH\", \"other-ca PATH\", \"ca-dir PATH\"";
        }
    }
    if (why != NULL) {
        fprintf(stderr, "start_front: %s bindings/python/tests/tls_front.py %s: %s\n", python, mock_url, why);
        return -1;
    }
    return 0;
}

/* Stops the front (SIGTERM; it exits at once) and removes the CA's folder. */
static void stop_front(void) {
    if (front_pid > 0) {
        kill(front_pid, SIGTERM);
        int status;
        while (waitpid(front_pid, &status, 0) < 0 && errno == EINTR) {}
        front_pid = -1;
    }
    if (ca_folder[0] != '\0') remove_temp_folder(ca_folder);
    ca_folder[0] = '\0';
}

/* ---- helpers ---- */

/* No CA variable set: only a test's own choice counts. */
static void clear_ca_environment(void) {
    unsetenv("CURL_CA_BUNDLE");
    unsetenv("SSL_CERT_FILE");
    unsetenv("SSL_CERT_DIR");
}

/* A client of the front with no retries, no pages read ahead and ca_file (NULL: not set); NULL
 * after a counted failure. */
static cf_client *open_front_client(const char *ca_file) {
    char options[512];
    if (ca_file != NULL) {
        snprintf(options, sizeof options, "{\"retries\":0,\"read_ahead\":0,\"ca_file\":\"%s\"}", ca_file);
    } else {
        snprintf(options, sizeof options, "{\"retries\":0,\"read_ahead\":0}");
    }
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(front_url, options, &c), CF_OK) != CF_OK) return NULL;
    CHECK(c != NULL);
    return c;
}

/* Page 1 of one breed from c succeeds, and its breed is the mock's first, Abyssinian. */
static void check_first_breed(cf_client *c) {
    char *out = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, 1, 1, &out), CF_OK) != CF_OK) return;
    CHECK_STR_EQ(cf_last_error(), "");
    json_t *page = PARSE_JSON(out);
    cf_free(out);
    json_t *items = json_object_get(page, "items");
    CHECK_INT_EQ(json_array_size(items), 1);
    CHECK_STR_EQ(json_get_str(json_array_get(items, 0), "breed"), "Abyssinian");
    CHECK_STR_EQ(json_get_str(page, "source"), "network");
    json_decref(page);
}

/*
 * cf_breeds_page(c, 1, 1) fails with CF_ERR_NETWORK, out is NULL, and cf_last_error() is
 * exactly "network error for <front_url>/breeds?page=1&limit=1: <before> (<libcurl's detail,
 * which varies with libcurl and its TLS library: not checked>)<after>; check the address and
 * your connection".
 */
static void check_tls_failure(cf_client *c, const char *before, const char *after) {
    char *out = (char *)"sentinel";
    cf_status status = cf_breeds_page(c, 1, 1, &out);
    char message[2048];
    snprintf(message, sizeof message, "%s", cf_last_error());
    CHECKF(status == CF_ERR_NETWORK, "got %s: %s", cf_status_string(status), message);
    CHECK(out == NULL);
    char head[1024], tail[1024];
    snprintf(head, sizeof head, "network error for %s/breeds?page=1&limit=1: %s (", front_url, before);
    snprintf(tail, sizeof tail, ")%s; check the address and your connection", after);
    size_t length = strlen(message), head_length = strlen(head), tail_length = strlen(tail);
    int ok = length > head_length + tail_length && strncmp(message, head, head_length) == 0 &&
             strcmp(message + length - tail_length, tail) == 0;
    CHECKF(ok, "the message is\n  \"%s\"\nexpected\n  \"%s<libcurl's detail>%s\"", message, head, tail);
}

/* What the messages say after libcurl's detail. */
#define SYSTEM_HINT \
    "; check the host name, and that the system's CA certificates are installed (ca-certificates); for a server " \
    "signed by a CA of your own (a company proxy, an internal mirror), name its certificate in the ca_file option " \
    "(--ca-file in the shell), SSL_CERT_FILE or CURL_CA_BUNDLE"
#define BUNDLE_HINT "; check the host name, and that this bundle holds the CA that signed the server's certificate"
#define UNUSABLE_HINT "; check that the path exists, is readable and holds PEM certificates"

/* ---- tests ---- */

static void without_the_ca_the_server_is_not_trusted_and_the_message_says_what_to_set(void) {
    clear_ca_environment();
    cf_client *c = open_front_client(NULL);
    if (c == NULL) return;
    check_tls_failure(c, "the server's TLS certificate could not be verified against the system's CA certificates",
                      SYSTEM_HINT);
    cf_client_close(c);
}

static void ca_file_trusts_the_server(void) {
    clear_ca_environment();
    cf_client *c = open_front_client(ca_pem);
    if (c == NULL) return;
    check_first_breed(c);
    cf_client_close(c);
}

static void ssl_cert_file_trusts_the_server(void) {
    clear_ca_environment();
    setenv("SSL_CERT_FILE", ca_pem, 1);
    cf_client *c = open_front_client(NULL);
    clear_ca_environment();
    if (c == NULL) return;
    check_first_breed(c);
    cf_client_close(c);
}

static void ssl_cert_dir_trusts_the_server(void) {
    clear_ca_environment();
    setenv("SSL_CERT_DIR", ca_dir, 1);
    cf_client *c = open_front_client(NULL);
    clear_ca_environment();
    if (c == NULL) return;
    check_first_breed(c);
    cf_client_close(c);
}

static void curl_ca_bundle_trusts_the_server(void) {
    clear_ca_environment();
    setenv("CURL_CA_BUNDLE", ca_pem, 1);
    cf_client *c = open_front_client(NULL);
    clear_ca_environment();
    if (c == NULL) return;
    check_first_breed(c);
    cf_client_close(c);
}

/* The variables count as they were when the client was opened, not when it calls. */
static void the_environment_is_read_when_the_client_is_opened(void) {
    clear_ca_environment();
    cf_client *without = open_front_client(NULL);
    setenv("SSL_CERT_FILE", ca_pem, 1);
    cf_client *with = open_front_client(NULL);
    clear_ca_environment();
    if (without != NULL) {
        setenv("CURL_CA_BUNDLE", ca_pem, 1);
        check_tls_failure(without, "the server's TLS certificate could not be verified against the system's CA certificates",
                          SYSTEM_HINT);
        clear_ca_environment();
        cf_client_close(without);
    }
    if (with != NULL) {
        check_first_breed(with);
        cf_client_close(with);
    }
}

static void curl_ca_bundle_wins_over_ssl_cert_file_and_ssl_cert_dir(void) {
    clear_ca_environment();
    setenv("CURL_CA_BUNDLE", ca_pem, 1);
    setenv("SSL_CERT_FILE", other_ca_pem, 1);
    cf_client *c = open_front_client(NULL);
    if (c != NULL) {
        check_first_breed(c);
        cf_client_close(c);
    }
    setenv("CURL_CA_BUNDLE", other_ca_pem, 1);
    setenv("SSL_CERT_FILE", ca_pem, 1);
    setenv("SSL_CERT_DIR", ca_dir, 1);
    c = open_front_client(NULL);
    clear_ca_environment();
    if (c == NULL) return;
    char before[512];
    snprintf(before, sizeof before, "the server's TLS certificate could not be verified against %s (from CURL_CA_BUNDLE)",
             other_ca_pem);
    check_tls_failure(c, before, BUNDLE_HINT);
    cf_client_close(c);
}

static void ca_file_wins_over_the_environment(void) {
    clear_ca_environment();
    setenv("CURL_CA_BUNDLE", other_ca_pem, 1);
    setenv("SSL_CERT_FILE", other_ca_pem, 1);
    cf_client *c = open_front_client(ca_pem);
    clear_ca_environment();
    if (c == NULL) return;
    check_first_breed(c);
    cf_client_close(c);
}

/* An empty variable counts as unset (as curl has it): the system's bundle is used. */
static void empty_variables_count_as_unset(void) {
    clear_ca_environment();
    setenv("CURL_CA_BUNDLE", "", 1);
    setenv("SSL_CERT_FILE", "", 1);
    cf_client *c = open_front_client(NULL);
    clear_ca_environment();
    if (c == NULL) return;
    check_tls_failure(c, "the server's TLS certificate could not be verified against the system's CA certificates",
                      SYSTEM_HINT);
    cf_client_close(c);
}

/* A bundle without the server's CA: the message names it and where it came from. */
static void a_bundle_without_the_servers_ca_is_named_with_where_it_came_from(void) {
    static const char *const sources[] = {"CURL_CA_BUNDLE", "SSL_CERT_FILE", "the ca_file option"};
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        clear_ca_environment();
        int option = strcmp(sources[i], "the ca_file option") == 0;
        if (!option) setenv(sources[i], other_ca_pem, 1);
        cf_client *c = open_front_client(option ? other_ca_pem : NULL);
        clear_ca_environment();
        if (c == NULL) continue;
        char before[512];
        snprintf(before, sizeof before, "the server's TLS certificate could not be verified against %s (from %s)",
                 other_ca_pem, sources[i]);
        check_tls_failure(c, before, BUNDLE_HINT);
        cf_client_close(c);
    }
}

/* A variable naming no file is not refused at open (as the option would be): the call says so. */
static void an_environment_bundle_that_does_not_exist_is_named(void) {
    char missing[320];
    snprintf(missing, sizeof missing, "%s/nowhere.pem", ca_folder);
    clear_ca_environment();
    setenv("SSL_CERT_FILE", missing, 1);
    cf_client *c = open_front_client(NULL);
    clear_ca_environment();
    if (c == NULL) return;
    char before[512];
    snprintf(before, sizeof before, "the CA certificates in %s (from SSL_CERT_FILE) cannot be used", missing);
    check_tls_failure(c, before, UNUSABLE_HINT);
    cf_client_close(c);
}

/* The system's bundles hidden: an empty tmpfs over /etc/ssl (and /etc/pki where it exists),
 * in this process's own mount namespace, for this test alone. */
static void with_no_ca_bundle_on_the_machine_the_error_says_what_to_install_or_set(void) {
    if (no_mounts != NULL) {
        fprintf(stderr, "tls_test: %s skipped: %s\n", __func__, no_mounts);
        return;
    }
    struct stat info;
    int pki = stat("/etc/pki", &info) == 0 && S_ISDIR(info.st_mode);
    int hidden = mount("none", "/etc/ssl", "tmpfs", 0, NULL) == 0;
    CHECKF(hidden, "mount tmpfs on /etc/ssl: %s", strerror(errno));
    if (!hidden) return;
    if (pki) CHECKF(mount("none", "/etc/pki", "tmpfs", 0, NULL) == 0, "mount tmpfs on /etc/pki: %s", strerror(errno));
    clear_ca_environment();
    cf_client *c = open_front_client(NULL);
    if (c != NULL) {
        check_tls_failure(c, "no CA certificates to verify the server with",
                          "; install the ca-certificates package, or name a PEM file of CA certificates in the ca_file "
                          "option (--ca-file in the shell), SSL_CERT_FILE or CURL_CA_BUNDLE");
        cf_client_close(c);
    }
    CHECKF(umount2("/etc/ssl", MNT_DETACH) == 0, "umount /etc/ssl: %s", strerror(errno));
    if (pki) CHECKF(umount2("/etc/pki", MNT_DETACH) == 0, "umount /etc/pki: %s", strerror(errno));
}

int main(void) {
    no_mounts = enter_mount_namespace("hiding the system's CA bundles under a tmpfs");
    char mock_url[128];
    if (start_mock(NULL, mock_url) != 0 || start_front(mock_url) != 0) {
        CHECKF(0, "cannot start the mock and the TLS front before it; skipped every test");
        stop_front();
        return harness_report("tls_test");
    }
    RUN(without_the_ca_the_server_is_not_trusted_and_the_message_says_what_to_set);
    RUN(ca_file_trusts_the_server);
    RUN(ssl_cert_file_trusts_the_server);
    RUN(ssl_cert_dir_trusts_the_server);
    RUN(curl_ca_bundle_trusts_the_server);
    RUN(the_environment_is_read_when_the_client_is_opened);
    RUN(curl_ca_bundle_wins_over_ssl_cert_file_and_ssl_cert_dir);
    RUN(ca_file_wins_over_the_environment);
    RUN(empty_variables_count_as_unset);
    RUN(a_bundle_without_the_servers_ca_is_named_with_where_it_came_from);
    RUN(an_environment_bundle_that_does_not_exist_is_named);
    RUN(with_no_ca_bundle_on_the_machine_the_error_says_what_to_install_or_set);
    stop_front();
    stop_mock();
    return harness_report("tls_test");
}
