import CatFactsKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's live handles: what a `cf_client *`, `cf_list *` or `cf_search *` stands for,
/// found by the pointer's value alone, so that no pointer a caller passes is ever read
/// through (a small integer, an unmapped or `PROT_NONE` page, a misaligned address, a closed
/// handle, a `cf_breed *`: each is told apart and named, never dereferenced).
///
/// A handle's value is an address inside a range the registry reserves at first use and never
/// maps (`PROT_NONE`, no memory behind it): no object of anyone else's can live there, so a
/// pointer from outside is never mistaken for a handle, and a program that reads through a
/// handle stops at once instead of reading garbage. The address encodes a slot (20 bits, so
/// at most 1,048,576 handles open at once) and the slot's generation (bumped at every close,
/// so a closed handle is not mistaken for the one that reuses its slot until that slot has
/// been reused 2^generationBits times; 256 with the 4 GiB reservation).
///
/// Each slot is one atomic word: the object's address, its kind and the generation. Opening,
/// closing and looking up take one lock (a lookup retains the object before letting go of it,
/// so a close on another thread cannot free it under the caller). ``peek(_:kind:)`` takes no
/// lock, allocates nothing and only loads atomics: `cf_client_interrupt` calls it from signal
/// handlers.
final class HandleRegistry: @unchecked Sendable {
    // @unchecked: the slots are atomics, `freeSlots` and `highWater` are only touched under `lock`.

    /// What a handle stands for; the raw values are stored in the low bits of a slot's word.
    enum Kind: UInt64, Sendable {
        case client = 1, list = 2, search = 3

        /// The C type, for messages ("cf_client").
        var cType: String {
            switch self {
            case .client: "cf_client"
            case .list: "cf_list"
            case .search: "cf_search"
            }
        }
    }

    /// What a pointer turned out to be.
    enum Lookup {
        case handle(AnyObject)
        case null
        case otherKind(Kind)
        case closed
        case notAHandle
        /// Opened before a `fork()`, in the parent: its threads did not come along.
        case inherited(Kind)
    }

    static let shared = HandleRegistry()

    /// Handles are this far apart (malloc's alignment): any address between two is not one.
    private static let step: UInt = 16
    private static let slotBits = 20
    private static let slotsPerChunk = 4096
    private static let chunkCount = (1 << slotBits) / slotsPerChunk
    /// A slot's word: bits 0-3 the kind (objects are 16-byte aligned, so their low bits are
    /// free), 4-47 the object's address, 48-55 the generation, 56 whether it is live, 57
    /// whether it was inherited across fork().
    private static let addressMask: UInt64 = 0x0000_FFFF_FFFF_FFF0
    private static let liveBit: UInt64 = 1 << 56
    /// Set in a child of `fork()` on every handle the parent had open.
    private static let inheritedBit: UInt64 = 1 << 57
    private static let generationShift: UInt64 = 48

    private let base: UInt
    private let generationBits: Int
    /// The slots, in chunks made as needed and never freed (a signal handler may read them).
    private let chunks: UnsafeMutablePointer<Atomic<UInt>>
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var freeSlots: [Int] = []
    private var highWater = 0

    private init() {
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        chunks = .allocate(capacity: Self.chunkCount)
        for index in 0..<Self.chunkCount { (chunks + index).initialize(to: Atomic(0)) }
        // The largest range the system grants, from 4 GiB (256 generations) down to 32 MiB
        // (2): address space only, with no memory and nothing counted against overcommit.
        var reserved: UInt = 0
        var bits = 8
        while bits >= 1 {
            let size = Int(Self.step) << (Self.slotBits + bits)
            let address = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
            if let address, address != MAP_FAILED {
                reserved = UInt(bitPattern: address)
                break
            }
            bits -= 1
        }
        base = reserved
        generationBits = reserved == 0 ? 0 : bits
        // The lock is held across fork() so the child's slots are whole; in the child every
        // open handle is marked inherited (its client's threads stayed in the parent).
        ProcessFork.register(.init(prepare: { [self] in pthread_mutex_lock(lock) },
                                   parent: { [self] in pthread_mutex_unlock(lock) },
                                   child: { [self] in
            markInherited()
            pthread_mutex_unlock(lock)
        }))
    }

    /// Marks every open handle inherited, in a child of fork() (the lock held).
    private func markInherited() {
        for slot in 0..<highWater {
            let word = self.word(slot)
            let current = word.pointee.load(ordering: .relaxed)
            if current & Self.liveBit != 0 { word.pointee.store(current | Self.inheritedBit, ordering: .releasing) }
        }
    }

    /// A new handle for `object`; an internal error when no address range could be reserved
    /// or 1,048,576 handles are open.
    func add(_ object: AnyObject, kind: Kind) throws(CatFactsError) -> OpaquePointer {
        guard base != 0 else { throw .internal("cannot reserve address space for handles (mmap refused it)") }
        let address = UInt64(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()))
        guard address & ~Self.addressMask == 0 else { throw .internal("an object at an address handles cannot hold") }
        // Retained before anyone could look it up.
        let retained = Unmanaged.passRetained(object)
        let value: UInt? = locked {
            let slot: Int
            if let reused = freeSlots.popLast() {
                slot = reused
            } else if highWater < 1 << Self.slotBits {
                slot = highWater
                if slot % Self.slotsPerChunk == 0 {
                    let chunk = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: Self.slotsPerChunk)
                    for index in 0..<Self.slotsPerChunk { (chunk + index).initialize(to: Atomic(0)) }
                    (chunks + slot / Self.slotsPerChunk).pointee.store(UInt(bitPattern: chunk), ordering: .releasing)
                }
                highWater += 1
            } else {
                return nil
            }
            let word = self.word(slot)
            let generation = (word.pointee.load(ordering: .relaxed) >> Self.generationShift) & 0xFF
            word.pointee.store(generation << Self.generationShift | Self.liveBit | address | kind.rawValue, ordering: .releasing)
            return base + Self.step * UInt(generation << Self.slotBits | UInt64(slot))
        }
        guard let value, let pointer = OpaquePointer(bitPattern: value) else {
            retained.release()
            throw .internal("too many handles open at once (\(1 << Self.slotBits)): close some")
        }
        return pointer
    }

    /// What `pointer` is, expected to be a handle of `kind`; the object is retained for
    /// the caller, so a close on another thread cannot free it under them.
    func lookup(_ pointer: OpaquePointer?, kind: Kind) -> Lookup {
        guard let pointer else { return .null }
        guard let (slot, generation) = place(pointer) else { return .notAHandle }
        return locked {
            guard slot < highWater else { return .notAHandle }
            let word = self.word(slot).pointee.load(ordering: .acquiring)
            guard word & Self.liveBit != 0, (word >> Self.generationShift) & 0xFF == generation else { return .closed }
            guard let found = Kind(rawValue: word & 0xF) else { return .notAHandle }
            guard found == kind else { return .otherKind(found) }
            guard word & Self.inheritedBit == 0 else { return .inherited(found) }
            return .handle(Self.object(word))
        }
    }

    /// The object of the live handle `pointer` of `kind`, with no lock and no retain (for
    /// signal handlers): `nil` for anything else. The caller must know the handle stays open.
    func peek(_ pointer: OpaquePointer?, kind: Kind) -> UnsafeMutableRawPointer? {
        guard let pointer, let (slot, generation) = place(pointer) else { return nil }
        let chunk = (chunks + slot / Self.slotsPerChunk).pointee.load(ordering: .acquiring)
        guard let slots = UnsafeMutablePointer<Atomic<UInt64>>(bitPattern: chunk) else { return nil }
        let word = (slots + slot % Self.slotsPerChunk).pointee.load(ordering: .acquiring)
        guard word & (Self.liveBit | Self.inheritedBit) == Self.liveBit, (word >> Self.generationShift) & 0xFF == generation,
              word & 0xF == kind.rawValue else { return nil }
        return UnsafeMutableRawPointer(bitPattern: UInt(word & Self.addressMask))
    }

    /// Ends the live handle `pointer` of `kind` and gives its retain to the caller; `nil`, and
    /// nothing changed, for anything else. An inherited handle (see ``Lookup/inherited(_:)``)
    /// is ended too, but `nil` is returned and its object kept forever: closing it would wait
    /// for threads that are in another process.
    func remove(_ pointer: OpaquePointer?, kind: Kind) -> Unmanaged<AnyObject>? {
        guard let pointer, let (slot, generation) = place(pointer) else { return nil }
        return locked {
            guard slot < highWater else { return nil }
            let word = self.word(slot)
            let current = word.pointee.load(ordering: .acquiring)
            guard current & Self.liveBit != 0, (current >> Self.generationShift) & 0xFF == generation,
                  current & 0xF == kind.rawValue else { return nil }
            let next = (generation + 1) & ((1 << UInt64(generationBits)) - 1)
            word.pointee.store(next << Self.generationShift, ordering: .releasing)
            freeSlots.append(slot)
            guard current & Self.inheritedBit == 0 else { return nil }
            return Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(current & Self.addressMask))!)
        }
    }

    /// The slot and generation `pointer`'s value names, judged by arithmetic alone: `nil`
    /// outside the reserved range or between two handles.
    private func place(_ pointer: OpaquePointer) -> (slot: Int, generation: UInt64)? {
        let value = UInt(bitPattern: pointer)
        guard base != 0, value >= base else { return nil }
        let offset = value - base
        guard offset % Self.step == 0 else { return nil }
        let index = offset / Self.step
        guard index >> (Self.slotBits + generationBits) == 0 else { return nil }
        return (Int(index & ((1 << Self.slotBits) - 1)), UInt64(index >> Self.slotBits))
    }

    /// The word of `slot`, whose chunk exists (slot < highWater).
    private func word(_ slot: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        let chunk = (chunks + slot / Self.slotsPerChunk).pointee.load(ordering: .acquiring)
        return UnsafeMutablePointer<Atomic<UInt64>>(bitPattern: chunk)! + slot % Self.slotsPerChunk
    }

    private static func object(_ word: UInt64) -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(word & addressMask))!).takeUnretainedValue()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}
