@testable import CatFactsKit
import Foundation
import Testing

@Suite("ProcessEnvironment and FileSystem: what ProcessInfo and FileManager gave")
struct ProcessEnvironmentTests {
    @Test func theEnvironmentIsProcessInfos() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
    }

    @Test func theProgramNameIsTheLastPartOfArgvZero() throws {
        let first = try #require(CommandLine.arguments.first)
        #expect(ProcessEnvironment.programName == URL(fileURLWithPath: first).lastPathComponent)
    }

    /// The CPUs of the affinity mask, as the kernel lists them in /proc/self/status
    /// (`Cpus_allowed_list: 0-3,6`). Not ProcessInfo's count, which also reads cgroup quotas.
    @Test func theCPUsAreTheAffinityMasks() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let count = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
            .split(separator: ",").reduce(0) { total, range in
                let ends = range.split(separator: "-").compactMap { Int($0) }
                return total + (ends.count == 2 ? ends[1] - ends[0] + 1 : 1)
            }
        #expect(ProcessEnvironment.activeProcessorCount == count)
    }

    @Test func foldersAreMadeWithTheirParentsAndErrorsNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("catfacts-fs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileSystem.createFolders(root + "/a/b/c") == nil)
        #expect(FileSystem.createFolders(root + "/a/b/c") == nil)  // already there
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: root + "/a/b/c", isDirectory: &isFolder) && isFolder.boolValue)
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data("abc".utf8)))
        #expect(FileSystem.createFolders(root + "/file/x") == "Not a directory")
        #expect(FileSystem.createFolders(root + "/file") == "Not a directory")
        #expect(FileSystem.contents(of: root + "/file") == Array("abc".utf8))
        #expect(FileSystem.contents(of: root + "/file", limit: 2) == Array("ab".utf8))
        #expect(FileSystem.contents(of: root + "/missing") == nil)
        #expect(FileSystem.exists(root + "/file") && !FileSystem.exists(root + "/missing"))
        #expect(FileSystem.isReadable(root + "/file") && !FileSystem.isReadable(root + "/missing"))
        #expect(FileSystem.move(root + "/file", to: root + "/moved") == nil)
        #expect(FileSystem.exists(root + "/moved") && !FileSystem.exists(root + "/file"))
        #expect(FileSystem.move(root + "/file", to: root + "/again") == "No such file or directory")
    }

    @Test func aRelativePathIsUnderTheWorkingFolder() {
        let here = FileManager.default.currentDirectoryPath
        #expect(FileSystem.absolute("/x/y") == "/x/y")
        #expect(FileSystem.absolute(".") == here)
        #expect(FileSystem.absolute("./a/b") == (here == "/" ? "/a/b" : here + "/a/b"))
        #expect(FileSystem.absolute("a") == (here == "/" ? "/a" : here + "/a"))
    }

    @Test(arguments: [("/a/b/c.sqlite", "/a/b"), ("c.sqlite", "."), ("/c", "/"), ("a/b/", "a"), ("/", "/"), ("./x", ".")])
    func theFolderOfAPath(path: String, folder: String) {
        #expect(FileSystem.folder(of: path) == folder)
    }
}
