// CGlibcFloor has no interface: glibc_floor.c only defines the __wrap_ functions the release
// link asks for (see there). This header exists because SwiftPM wants one per C target.
