# What each of glibc's malloc arenas holds in a running process, and which threads use it:
#
#   gdb -p PID -batch -nx -x Tests/soak/malloc_arenas.py
#
# Runs inside gdb (its Python), reading the process while gdb holds it stopped; needs glibc's
# debug symbols (Debian's libc6-dbg) for `main_arena`, `struct malloc_state` and each thread's
# `thread_arena`. For every arena other than the main one (the thread arenas that the soak's
# report counts apart): its size, the bytes in its chunks in use and free (a chunk in a
# thread's tcache or a fastbin counts as in use, as malloc's own mallinfo2 counts it), its top
# chunk, its threads, and its in-use bytes by kind: a Swift object named by its type metadata
# where the first word of the block is a symbol, else by size. Then, over every arena, the
# unnamed blocks of 1 kB or more by size with their first bytes, which tell page texts and
# JSON from the rest. docs/architecture.md ("Resident memory and malloc's arenas") has what
# it found in the soak.
import collections

import gdb  # type: ignore[import-untyped,import-not-found,unused-ignore]  # gdb's own, there only in gdb


def symbol(address: int) -> str | None:
    try:
        text = gdb.execute(f"info symbol {address:#x}", to_string=True).strip()
    except gdb.error:
        return None
    return None if text.startswith("No symbol") else text.split(" in section")[0]


def threads_by_arena() -> dict[int, list[str]]:
    users: dict[int, list[str]] = collections.defaultdict(list)
    for thread in gdb.selected_inferior().threads():
        thread.switch()
        try:
            arena = int(gdb.parse_and_eval("(long)thread_arena"))
        except gdb.error:
            continue
        users[arena].append(f"{thread.ptid[1]}:{thread.name or '?'}")
    return users


def main() -> None:
    inferior = gdb.selected_inferior()
    state_size = int(gdb.parse_and_eval("sizeof(struct malloc_state)"))
    main_arena = int(gdb.parse_and_eval("(long)&main_arena"))
    users = threads_by_arena()
    unnamed: collections.Counter[int] = collections.Counter()
    first_bytes: dict[int, bytes] = {}
    totals = collections.Counter[str]()
    arena = gdb.parse_and_eval("main_arena")["next"]
    while int(arena) != main_arena:
        address = int(arena)
        top = int(arena["top"])
        first = address + state_size
        first += (-(first + 16)) % 16  # the first chunk's memory is 16-byte aligned
        memory = inferior.read_memory(first, top - first + 16).tobytes()
        top_size = int.from_bytes(inferior.read_memory(top + 8, 8).tobytes(), "little") & ~7
        used = free = 0
        kinds = collections.Counter[str]()
        offset = 0
        while offset < len(memory) - 16:
            size = int.from_bytes(memory[offset + 8:offset + 16], "little") & ~7
            following = offset + size
            if size < 32 or following > len(memory):
                break
            # In use when the next chunk says its previous one is (PREV_INUSE); the top's header
            # is the last 16 bytes read.
            in_use = following + 16 > len(memory) or bool(memory[following + 8] & 1)
            if in_use:
                used += size
                name = symbol(int.from_bytes(memory[offset + 16:offset + 24], "little")) if size >= 256 else None
                if name is None and size >= 1024:
                    unnamed[size] += 1
                    first_bytes.setdefault(size, memory[offset + 16:offset + 64])
                kind = name or ("unnamed, 16 kB or more" if size >= 16384 else
                                "unnamed, 1-16 kB" if size >= 1024 else "under 1 kB")
                kinds[kind] += size
                totals[kind] += size
            else:
                free += size
            offset = following
        print(f"arena {address:#x}: {int(arena['system_mem']) / 1048576:.2f} MB, in use {used / 1048576:.2f},"
              f" free {free / 1048576:.2f}, top {top_size // 1024} kB;"
              f" threads: {', '.join(users.get(address, [])) or 'none'}")
        for kind, size in kinds.most_common(5):
            print(f"    {size / 1024:8.1f} kB  {kind}")
        arena = arena["next"]
    print("every thread arena, in use by kind:")
    for kind, size in totals.most_common(15):
        print(f"    {size / 1024:8.1f} kB  {kind}")
    print("unnamed blocks of 1 kB or more, by size: count, kB, first bytes")
    for size, count in sorted(unnamed.items(), key=lambda item: -item[0] * item[1])[:25]:
        head = first_bytes[size]
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in head)
        print(f"  {size:7d} x{count:4d} {size * count / 1024:7.1f}  {text}")


main()
