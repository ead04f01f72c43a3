// swift-tools-version: 6.0
import PackageDescription

/// The C face calls the generic pager (`PagedList<Breed>`) across a module boundary: without
/// cross-module optimization every call looks up generic metadata at run time, which costs
/// more than the call's own work (see BENCHMARKS.md, cf_list_breed).
let crossModuleOptimization: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

/// The glibc floor (abi/glibc-floor, `make glibc-check`): the release binaries bind to glibc
/// and libstdc++ symbol versions old enough for glibc 2.28 and GCC 8, though linked on a newer
/// system. Each symbol here is redirected (--wrap) to a wrapper in Sources/CGlibcFloor that
/// calls its older version; glibc_floor.c says why each is needed. libpthread.so.0 and libdl.so.2
/// are linked because those older versions live there before glibc 2.34 (empty libraries since).
let glibcFloorWrapped = [
    "exp", "exp2", "log", "log2", "pow", "hypot", "hypotf",
    "pthread_getaffinity_np", "pthread_setaffinity_np", "pthread_getattr_np", "pthread_attr_getstacksize",
    "pthread_getname_np", "pthread_mutex_timedlock", "pthread_rwlock_destroy", "pthread_rwlock_init",
    "pthread_rwlock_rdlock", "pthread_rwlock_unlock", "pthread_rwlock_wrlock", "pthread_rwlockattr_destroy",
    "pthread_rwlockattr_init", "pthread_rwlockattr_setkind_np", "posix_spawn_file_actions_addchdir_np",
    "_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE", "pthread_sigmask", "pthread_attr_getstack",
    "pthread_attr_setstacksize", "pthread_create", "pthread_detach", "pthread_join",
    "pthread_key_create", "pthread_key_delete", "pthread_getspecific", "pthread_setspecific",
    "pthread_kill", "pthread_mutex_trylock", "pthread_mutexattr_destroy", "pthread_mutexattr_init",
    "pthread_mutexattr_settype", "pthread_once", "pthread_condattr_setclock", "pthread_setname_np",
    "sem_close", "sem_destroy", "sem_init", "sem_open", "sem_post", "sem_timedwait", "sem_unlink", "sem_wait",
    "dladdr", "dlclose", "dlerror", "dlopen", "dlsym",
    "stat", "lstat", "fstat", "fstatat",
    "_ZSt28__throw_bad_array_new_lengthv",
]
/// lld for the programs too: gold applies --wrap to the wrapper's own versioned reference
/// (SYMBOL@VERSION), so each wrapper would jump to itself.
func glibcFloorLinking(programs: Bool) -> [String] {
    let wrapped = glibcFloorWrapped + (programs ? ["__libc_start_main"] : [])
    let linker: [String] = programs ? ["-use-ld=lld"] : []
    return linker + wrapped.flatMap { ["-Xlinker", "--wrap=\($0)"] }
        + ["-Xlinker", "--push-state", "-Xlinker", "--no-as-needed",
           "-Xlinker", "-l:libpthread.so.0", "-Xlinker", "-l:libdl.so.2", "-Xlinker", "--pop-state"]
}

/// How libCatFacts.so is linked. Always: only the header's functions exported (a version
/// script; everything else local, so no Swift internals become ABI and nothing clashes with
/// a host's own Swift runtime), the SONAME libCatFacts.so.0, never unloaded (-z nodelete),
/// no undefined symbols; lld,
/// whose dynamic symbol table then holds nothing else. In release builds: the Swift runtime linked
/// in (-static-stdlib; no Foundation), unused sections dropped, so the library
/// loads where no Swift toolchain is installed (`make dist-check` proves it).
let libraryLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld",
                  "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/CatFactsC/catfacts.map",
                  "-Xlinker", "-soname=libCatFacts.so.0",
                  // dlclose() leaves it loaded (catfacts.h, "The process"): its threads and its
                  // fork handlers run its code, which must stay mapped for the process's life.
                  "-Xlinker", "-z", "-Xlinker", "nodelete"], .when(platforms: [.linux])),
    // Release: every symbol resolved at link time (-z defs), so a runtime library left out of
    // the static link fails the build, not the first dlopen on someone else's machine. Not in
    // debug builds, which the ThreadSanitizer build is (make tsan): there the
    // sanitizer's runtime comes with the program that loads the library. No Foundation:
    // CatFactsKit and CatFactsC do not import it (7.5 MB; see BENCHMARKS.md, Footprint), and
    // -z defs would refuse the link if a use crept in. Identical code is folded only where no address is taken (--icf=safe):
    // --icf=all would take 0.2 MB more off, but Swift compares some function addresses (key
    // path accessors), and a library inside someone else's process must not bet on it.
    .unsafeFlags(["-static-stdlib", "-Xlinker", "--gc-sections", "-Xlinker", "--icf=safe", "-Xlinker", "-z", "-Xlinker", "defs"]
                 + glibcFloorLinking(programs: false),
                 .when(platforms: [.linux], configuration: .release)),
]

/// The installed programs (release builds) carry the Swift runtime and Foundation: they run
/// where no Swift toolchain is installed, and start without loading and relocating 14 shared
/// libraries (see BENCHMARKS.md, cold start).
let staticFoundation: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xlinker", "--start-group", "-lCoreFoundation",
                  "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                  "-lFoundationInternationalization", "-lFoundationEssentials",
                  "-Xlinker", "--end-group"] + glibcFloorLinking(programs: true),
                 .when(platforms: [.linux], configuration: .release)),
]

/// The libFuzzer targets (Tests/Fuzz, `make fuzz`) exist only when CATFACTS_FUZZ is set: they
/// call libFuzzer's driver, linked by `-sanitize=fuzzer`, so they could not link in a plain
/// build, and a plain `swift build` or `swift build --build-tests` neither compiles nor waits for them.
/// The fuzz build has its own scratch path (.build-fuzz), and CatFactsC's linking flags are
/// left out there: their version script would make every other symbol local, ASan's
/// interceptors included, and -z defs would refuse the coverage hooks that the program
/// loading the library answers. The libCatFacts.so it links is the instrumented one that
/// `make c-misuse` runs the misuse suite against.
let fuzzing = Context.environment["CATFACTS_FUZZ"] != nil

let package = Package(
    name: "CatFacts",
    platforms: [.macOS(.v15)],
    products: [
        // libCatFacts.so: the C face (include/catfacts.h).
        .library(name: "CatFacts", type: .dynamic, targets: ["CatFactsC"]),
        // The Swift API, for Swift programs and Apple apps.
        .library(name: "CatFactsKit", targets: ["CatFactsKit"]),
        // CatFactsKit's values as Foundation's (Date, URL), and a JSONDecoder-based PageDecoder.
        .library(name: "CatFactsFoundation", targets: ["CatFactsFoundation"]),
        .library(name: "CatFactsMock", targets: ["CatFactsMock"]),
        .executable(name: "catfacts-mock", targets: ["catfacts-mock"]),
        .executable(name: "catfacts", targets: ["catfacts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        .target(
            name: "CatFactsKit",
            dependencies: [
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                // The offline page cache (Sources/CatFactsKit/Store): SQLite's C API.
                "CSQLite",
                // HTTP (Sources/CatFactsKit/Transport): libcurl's multi interface.
                "CCurl",
                // gzip for OTLP exports (Sources/CatFactsKit/Telemetry/Gzip.swift): the system's zlib.
                "CZlib",
                // The C library's GNU extensions (Sources/CatFactsKit/System/ProcessEnvironment.swift).
                "CProcess",
            ],
            swiftSettings: crossModuleOptimization
        ),
        // What CatFactsKit leaves out so that the shipped library does not link Foundation:
        // Date and URL for its Timestamp and WebAddress, a PageDecoder over JSONDecoder.
        .target(name: "CatFactsFoundation", dependencies: ["CatFactsKit"]),
        // libcurl, loaded on first use (libcurl4-openssl-dev for the headers; the system's
        // libcurl4 at run time).
        .target(name: "CCurl"),
        // The program's name and its CPUs, from glibc's GNU extensions. DWARF 4: valgrind 3.19
        // (Debian 12's, make c-valgrind) gives up on the whole library over this unit's DWARF 5
        // ("Possibly corrupted debuginfo file").
        .target(name: "CProcess", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // The system's SQLite (libsqlite3-dev for the headers; libsqlite3 at run time).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // The system's zlib (zlib1g-dev for the header; zlib1g, which libcurl4 needs too, at run time).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // include/catfacts.h as a Clang module: CatFactsC's exports are built from its types.
        .systemLibrary(name: "CCatFactsHeader", path: "Sources/CCatFactsHeader"),
        .target(
            name: "CatFactsC",
            dependencies: ["CatFactsKit", "CCatFactsHeader", "CGlibcFloor"],
            exclude: ["catfacts.map"],
            swiftSettings: crossModuleOptimization,
            linkerSettings: fuzzing ? [] : libraryLinking
        ),
        .target(
            name: "CatFactsMock",
            dependencies: [
                "CatFactsKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "catfacts-mock",
            dependencies: ["CatFactsMock", "CatFactsKit", "CommandLineArguments", "CGlibcFloor", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: staticFoundation
        ),
        // main's argv for the executables, where Swift's CommandLine cannot read it (no /proc).
        .target(name: "CCommandLine"),
        .target(name: "CommandLineArguments", dependencies: ["CCommandLine"]),
        // The wrappers that bind the release binaries to older glibc symbol versions (glibcFloorWrapped).
        .target(name: "CGlibcFloor", cSettings: [.define("CATFACTS_GLIBC_FLOOR", .when(platforms: [.linux], configuration: .release))]),
        // GNU readline for the shell's line editing (libreadline-dev); only the shell links it.
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        .executableTarget(
            name: "catfacts",
            dependencies: [
                "CatFactsKit", "CReadline", "CommandLineArguments", "CGlibcFloor",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: staticFoundation
        ),
        .executableTarget(
            name: "catfacts-bench",
            dependencies: [
                "CatFactsKit", "CatFactsFoundation", "CatFactsMock",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "CatFactsKitTests", dependencies: ["CatFactsKit", "CatFactsFoundation", "CatFactsMock", "CSQLite", "CCurl"]),
        .testTarget(name: "CatFactsMockTests", dependencies: ["CatFactsMock", "CatFactsKit"]),
    ],
    swiftLanguageModes: [.v6]
)

if fuzzing {
    // lld: gold fails with an internal error on these binaries (ASan's instrumented objects).
    let fuzzLinking: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]
    package.targets += [
        // libFuzzer's driver (in the runtime -sanitize=fuzzer links), for the targets' main.
        .systemLibrary(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
        // The one `main` every target hands its function to (libFuzzer's driver).
        .target(name: "FuzzDriver", dependencies: ["CLibFuzzer"], path: "Tests/Fuzz/Driver"),
        // The page decoder, differential: ScanningPageDecoder against Foundation's JSONDecoder.
        .executableTarget(name: "fuzz-page-decoder", dependencies: ["CatFactsKit", "CatFactsFoundation", "FuzzDriver"], path: "Tests/Fuzz/PageDecoder",
                          linkerSettings: fuzzLinking),
        // The options JSON of cf_client_open and cf_list_open.
        .executableTarget(name: "fuzz-options", dependencies: ["CatFactsC", "CatFactsKit", "FuzzDriver"], path: "Tests/Fuzz/Options",
                          linkerSettings: fuzzLinking),
        // The query JSON of cf_breeds_query, answered over the bundled catalog.
        .executableTarget(name: "fuzz-query", dependencies: ["CatFactsC", "CatFactsKit", "FuzzDriver"], path: "Tests/Fuzz/Query",
                          linkerSettings: fuzzLinking),
        // WebAddress, the URL parser, differential: against Foundation's URLComponents.
        .executableTarget(name: "fuzz-web-address", dependencies: ["CatFactsKit", "FuzzDriver"], path: "Tests/Fuzz/WebAddress",
                          linkerSettings: fuzzLinking),
    ]
}
