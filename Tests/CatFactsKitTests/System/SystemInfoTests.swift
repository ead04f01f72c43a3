@testable import CatFactsKit
import Foundation
import Testing

@Suite("System information")
struct SystemInfoTests {
    @Test func everyFieldIsFilledOnThisMachine() {
        let info = SystemInfo.current
        for (name, value) in [("make", info.device.make), ("model", info.device.model), ("arch", info.device.arch),
                              ("os name", info.os.name), ("os version", info.os.version), ("kernel", info.os.kernel),
                              ("app", info.app.name)] {
            #expect(!value.isEmpty && value != "unknown", "\(name) is '\(value)'")
        }
        #expect(info.device.cpus == ProcessEnvironment.activeProcessorCount)
        #expect(info.app.libraryVersion == LibraryVersion.string)
    }

    @Test func memoryGrowsWhenFiftyMegabytesAreTouched() {
        let before = MemoryUsage.current()
        #expect(before.residentBytes > 0)
        let size = 50 << 20
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 4096)
        defer { block.deallocate() }
        // Writing every page makes it resident; an untouched allocation would not show.
        for offset in stride(from: 0, to: size, by: 4096) { block[offset] = 1 }
        let after = MemoryUsage.current()
        #expect(after.residentBytes - before.residentBytes >= 45 << 20, "grew \(after.residentBytes - before.residentBytes) bytes")
        #expect(after.peakResidentBytes >= after.residentBytes)
    }

    @Test func osReleaseIsParsedWithQuotesRemoved() {
        let fields = OperatingSystemInfo.parseOSRelease("""
            PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
            NAME="Debian GNU/Linux"
            VERSION_ID="12"
            # a comment
            ID=debian
            """)
        #expect(fields["NAME"] == "Debian GNU/Linux")
        #expect(fields["VERSION_ID"] == "12")
        #expect(fields["ID"] == "debian")
    }

    @Test func procStatusSizesAreKilobytes() {
        let usage = MemoryUsage.parseProcStatus("Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n")
        #expect(usage == MemoryUsage(residentBytes: 1024 * 1024, peakResidentBytes: 2048 * 1024))
        #expect(MemoryUsage.parseProcStatus("garbage") == MemoryUsage(residentBytes: 0, peakResidentBytes: 0))
    }
}
