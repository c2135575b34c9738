/* A directory walker: lists a tree (sorted) with types and sizes, using
   the libc (opendir/readdir/stat over fd_readdir, path_open, filestat). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static long walk(const char *path, int depth) {
    DIR *d = opendir(path);
    if (!d) { perror(path); return 0; }
    char *names[256];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 256)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) names[n++] = strdup(de->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], cmp);
    long files = 0;
    for (int i = 0; i < n; i++) {
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", path, names[i]);
        struct stat st;
        if (lstat(full, &st) != 0) { perror(full); continue; }
        printf("%*s%s", depth * 2, "", names[i]);
        if (S_ISDIR(st.st_mode)) {
            printf("/\n");
            files += walk(full, depth + 1);
        } else if (S_ISLNK(st.st_mode)) {
            char t[256];
            ssize_t k = readlink(full, t, sizeof t - 1);
            t[k < 0 ? 0 : k] = 0;
            printf(" -> %s\n", t);
        } else {
            printf(" (%lld bytes)\n", (long long)st.st_size);
            files++;
        }
        free(names[i]);
    }
    return files;
}

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : "/sandbox";
    printf("%s/\n", root);
    long n = walk(root, 1);
    printf("%ld files\n", n);
    return 0;
}
