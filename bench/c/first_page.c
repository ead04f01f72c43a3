/* Cold start: open a client, fetch the first page of breeds and print it (the JSON of
 * cf_breeds_page). What a C program pays from exec to its first page on screen.
 *   Usage: first_page BASE_URL [LIMIT] */
#include <catfacts.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL [LIMIT]\n", argv[0]);
        return 2;
    }
    cf_client *client = NULL;
    char *json = NULL;
    if (cf_client_open(argv[1], NULL, &client) != CF_OK ||
        cf_breeds_page(client, 1, argc > 2 ? atoll(argv[2]) : 25, &json) != CF_OK) {
        fprintf(stderr, "first_page: %s\n", cf_last_error());
        return 1;
    }
    puts(json);
    cf_free(json);
    cf_client_close(client);
    return 0;
}
