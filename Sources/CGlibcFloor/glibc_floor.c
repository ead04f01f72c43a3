// Binds the release binaries (libCatFacts.so, catfacts, catfacts-mock) to glibc and libstdc++
// symbol versions no newer than abi/glibc-floor (GLIBC_2.28) and GLIBCXX_3.4.25, though they
// are linked on a newer system (Debian 12: glibc 2.36, GCC 12).
//
// Why: the linker binds each undefined symbol to the default (newest) version the build
// machine's libc.so.6 defines, and the Swift runtime's static archives, FoundationEssentials,
// Dispatch and our dependencies call functions whose default version is newer than the floor:
// the pthread, dl and sem functions moved into libc in 2.34 (each with a new version there),
// pthread_sigmask and friends in 2.32, the stat family became real functions in 2.33, exp, log,
// pow and their kin got new versions in 2.29 (no SVID error handling) and hypot in 2.35. Every
// one of them still has the older version, with the same behaviour for our calls, and that
// older version is what a program linked on the older glibc uses.
//
// How: Package.swift links the release products with `--wrap=SYMBOL` for each symbol below,
// which turns every reference to SYMBOL into one to __wrap_SYMBOL; this file defines
// __wrap_SYMBOL as a jump to SYMBOL@VERSION, the older version (`.symver` names it). The stat
// family has no older version of the same name: before 2.33 `stat` was an inline in
// libc_nonshared.a calling `__xstat(_STAT_VER, ...)`, so the wrappers do that. The wrappers are
// hidden: they never enter a dynamic symbol table. Each sits in a section of its own, so
// --gc-sections drops those a product does not call.
//
// The functions that moved into libc in 2.34 lived in libpthread.so.0 and libdl.so.2 before:
// Package.swift also links those two (empty on glibc >= 2.34, where libc answers) so that an
// older glibc loads them. scripts/check-glibc-floor.sh (make glibc-check) fails when a symbol
// newer than the floor is left, naming it: a new one gets a line here and in Package.swift.
//
// Nothing here is compiled but in release builds (CATFACTS_GLIBC_FLOOR, set by Package.swift),
// the only ones linked with the --wrap list, and only for x86_64 Linux: the versions are
// x86_64's. A debug or sanitizer build links the toolchain's shared runtime as it is.
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stddef.h>
#include <sys/stat.h>

#if defined(CATFACTS_GLIBC_FLOOR) && defined(__linux__) && defined(__x86_64__) && defined(__GLIBC__)

// OLD(SYMBOL, VERSION): __wrap_SYMBOL jumps to SYMBOL@VERSION (arguments and result untouched).
#define OLD(sym, ver)                                                                          \
    __asm__(".symver catfacts_old_" #sym ", " #sym "@" #ver "\n"                               \
            ".pushsection .text.__wrap_" #sym ",\"ax\",@progbits\n"                            \
            ".globl __wrap_" #sym "\n"                                                         \
            ".hidden __wrap_" #sym "\n"                                                        \
            ".type __wrap_" #sym ",@function\n"                                                \
            "__wrap_" #sym ":\n"                                                               \
            "\tjmp catfacts_old_" #sym "@PLT\n"                                                \
            ".size __wrap_" #sym ", .-__wrap_" #sym "\n"                                       \
            ".popsection\n");

// libm: new versions in 2.29 (exp, exp2, log, log2, pow) and 2.35 (hypot, hypotf).
OLD(exp, GLIBC_2.2.5)
OLD(exp2, GLIBC_2.2.5)
OLD(log, GLIBC_2.2.5)
OLD(log2, GLIBC_2.2.5)
OLD(pow, GLIBC_2.2.5)
OLD(hypot, GLIBC_2.2.5)
OLD(hypotf, GLIBC_2.2.5)

// libpthread before 2.34 (2.32 for the first three: moved into libc a release earlier).
OLD(pthread_getaffinity_np, GLIBC_2.3.4)
OLD(pthread_setaffinity_np, GLIBC_2.3.4)
OLD(pthread_attr_getstacksize, GLIBC_2.2.5)
OLD(pthread_getname_np, GLIBC_2.12)
OLD(pthread_mutex_timedlock, GLIBC_2.2.5)
OLD(pthread_rwlock_destroy, GLIBC_2.2.5)
OLD(pthread_rwlock_init, GLIBC_2.2.5)
OLD(pthread_rwlock_rdlock, GLIBC_2.2.5)
OLD(pthread_rwlock_unlock, GLIBC_2.2.5)
OLD(pthread_rwlock_wrlock, GLIBC_2.2.5)
OLD(pthread_rwlockattr_destroy, GLIBC_2.2.5)
OLD(pthread_rwlockattr_init, GLIBC_2.2.5)
OLD(pthread_rwlockattr_setkind_np, GLIBC_2.2.5)
OLD(pthread_getattr_np, GLIBC_2.2.5)
OLD(pthread_sigmask, GLIBC_2.2.5)
OLD(pthread_attr_getstack, GLIBC_2.2.5)
OLD(pthread_attr_setstacksize, GLIBC_2.2.5)
OLD(pthread_create, GLIBC_2.2.5)
OLD(pthread_detach, GLIBC_2.2.5)
OLD(pthread_join, GLIBC_2.2.5)
OLD(pthread_key_create, GLIBC_2.2.5)
OLD(pthread_key_delete, GLIBC_2.2.5)
OLD(pthread_getspecific, GLIBC_2.2.5)
OLD(pthread_setspecific, GLIBC_2.2.5)
OLD(pthread_kill, GLIBC_2.2.5)
OLD(pthread_mutex_trylock, GLIBC_2.2.5)
OLD(pthread_mutexattr_destroy, GLIBC_2.2.5)
OLD(pthread_mutexattr_init, GLIBC_2.2.5)
OLD(pthread_mutexattr_settype, GLIBC_2.2.5)
OLD(pthread_once, GLIBC_2.2.5)
OLD(pthread_condattr_setclock, GLIBC_2.3.3)
OLD(pthread_setname_np, GLIBC_2.12)
OLD(sem_close, GLIBC_2.2.5)
OLD(sem_destroy, GLIBC_2.2.5)
OLD(sem_init, GLIBC_2.2.5)
OLD(sem_open, GLIBC_2.2.5)
OLD(sem_post, GLIBC_2.2.5)
OLD(sem_timedwait, GLIBC_2.2.5)
OLD(sem_unlink, GLIBC_2.2.5)
OLD(sem_wait, GLIBC_2.2.5)

// libdl before 2.34.
OLD(dladdr, GLIBC_2.2.5)
OLD(dlclose, GLIBC_2.2.5)
OLD(dlerror, GLIBC_2.2.5)
OLD(dlopen, GLIBC_2.2.5)
OLD(dlsym, GLIBC_2.2.5)

// libstdc++: std::__throw_bad_array_new_length is GLIBCXX_3.4.29 (GCC 11); the C++ ABI's
// __cxa_throw_bad_array_new_length (CXXABI_1.3.8, GCC 4.9) throws the same exception.
__asm__(".pushsection .text.__wrap__ZSt28__throw_bad_array_new_lengthv,\"ax\",@progbits\n"
        ".globl __wrap__ZSt28__throw_bad_array_new_lengthv\n"
        ".hidden __wrap__ZSt28__throw_bad_array_new_lengthv\n"
        ".type __wrap__ZSt28__throw_bad_array_new_lengthv,@function\n"
        "__wrap__ZSt28__throw_bad_array_new_lengthv:\n"
        "\tjmp __cxa_throw_bad_array_new_length@PLT\n"
        ".size __wrap__ZSt28__throw_bad_array_new_lengthv, .-__wrap__ZSt28__throw_bad_array_new_lengthv\n"
        ".popsection\n");

// libstdc++: std::condition_variable::wait got a new version in GCC 12 (GLIBCXX_3.4.30); the
// GCC 4.4 one (GLIBCXX_3.4.11) waits the same way. (The mock's NIO calls it.)
OLD(_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE, GLIBCXX_3.4.11)

// posix_spawn_file_actions_addchdir_np is new in glibc 2.29, with no older version: Foundation's
// Process (in the mock) calls it to start a child in another folder. Looked up when called;
// on an older glibc the call fails with ENOSYS, as a libc without it would answer.
typedef int (*addchdir_function)(posix_spawn_file_actions_t *, const char *);
__attribute__((visibility("hidden"), used)) __attribute__((section(".text.__wrap_posix_spawn_file_actions_addchdir_np")))
int __wrap_posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path) {
    addchdir_function function = (addchdir_function)dlsym(RTLD_DEFAULT, "posix_spawn_file_actions_addchdir_np");
    return function != NULL ? function(actions, path) : ENOSYS;
}

// The stat family: before 2.33 these were inlines calling __xstat and friends with the
// structure's version, _STAT_VER_LINUX (1 on x86_64); those functions are still in libc.
#define STAT_VER_LINUX 1
#define WRAPPER __attribute__((visibility("hidden"), used))
extern int catfacts_xstat(int, const char *, struct stat *);
extern int catfacts_lxstat(int, const char *, struct stat *);
extern int catfacts_fxstat(int, int, struct stat *);
extern int catfacts_fxstatat(int, int, const char *, struct stat *, int);
__asm__(".symver catfacts_xstat, __xstat@GLIBC_2.2.5");
__asm__(".symver catfacts_lxstat, __lxstat@GLIBC_2.2.5");
__asm__(".symver catfacts_fxstat, __fxstat@GLIBC_2.2.5");
__asm__(".symver catfacts_fxstatat, __fxstatat@GLIBC_2.4");

WRAPPER __attribute__((section(".text.__wrap_stat"))) int __wrap_stat(const char *path, struct stat *buf) {
    return catfacts_xstat(STAT_VER_LINUX, path, buf);
}
WRAPPER __attribute__((section(".text.__wrap_lstat"))) int __wrap_lstat(const char *path, struct stat *buf) {
    return catfacts_lxstat(STAT_VER_LINUX, path, buf);
}
WRAPPER __attribute__((section(".text.__wrap_fstat"))) int __wrap_fstat(int fd, struct stat *buf) {
    return catfacts_fxstat(STAT_VER_LINUX, fd, buf);
}
WRAPPER __attribute__((section(".text.__wrap_fstatat"))) int __wrap_fstatat(int dirfd, const char *path, struct stat *buf, int flags) {
    return catfacts_fxstatat(STAT_VER_LINUX, dirfd, path, buf, flags);
}

// Programs only (catfacts, catfacts-mock): glibc 2.34's Scrt1.o calls __libc_start_main@GLIBC_2.34
// with no init function, because that libc runs the program's constructors itself. The older
// version runs only the init function it is given (glibc < 2.34 programs passed
// __libc_csu_init): without one, the Swift runtime's constructors would never run. So this
// passes one that does what __libc_csu_init did: _init, then .init_array (the dynamic linker
// runs .preinit_array). glibc >= 2.34 still honours a given init function (its "legacy
// program" path) and then runs no constructors of its own, so they run once either way.
typedef void (*init_function)(int, char **, char **);
extern init_function __init_array_start[] __attribute__((visibility("hidden")));
extern init_function __init_array_end[] __attribute__((visibility("hidden")));
extern void _init(void);
extern int catfacts_libc_start_main(int (*)(int, char **, char **), int, char **, void (*)(void),
                                    void (*)(void), void (*)(void), void *);
__asm__(".symver catfacts_libc_start_main, __libc_start_main@GLIBC_2.2.5");

__attribute__((section(".text.__wrap___libc_start_main"))) static void catfacts_run_init(int argc, char **argv, char **envp) {
    _init();
    size_t count = (size_t)(__init_array_end - __init_array_start);
    for (size_t i = 0; i < count; i++) {
        __init_array_start[i](argc, argv, envp);
    }
}

WRAPPER __attribute__((section(".text.__wrap___libc_start_main"))) int __wrap___libc_start_main(
    int (*main)(int, char **, char **), int argc, char **argv, void (*init)(void), void (*fini)(void),
    void (*rtld_fini)(void), void *stack_end) {
    return catfacts_libc_start_main(main, argc, argv, init != NULL ? init : (void (*)(void))catfacts_run_init,
                                    fini, rtld_fini, stack_end);
}

#endif
