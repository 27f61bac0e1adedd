import Foundation
import Synchronization

/// The input being run, kept where a crash handler and the hang watchdog can print it: a trap
/// kills the process before any Swift code could catch it, so its input is written from the
/// signal handler, from this fixed buffer, with write(2) only.
enum CurrentInput {
    static let capacity = 1 << 20
    nonisolated(unsafe) static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) static var count = 0
    nonisolated(unsafe) static var target = UnsafeMutablePointer<CChar>.allocate(capacity: 64)
    nonisolated(unsafe) static let hexOut = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * printedBytes + 256)
    /// Bytes of an input printed (as hex) with a finding.
    static let printedBytes = 2_048
    /// When the current execution started (uptime, nanoseconds); 0 between executions.
    static let started = Atomic<UInt64>(0)

    static func begin(_ input: [UInt8], target name: String) {
        count = min(input.count, capacity)
        input.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
        _ = name.withCString { strncpy(target, $0, 63) }
        started.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
    }

    static func end() { started.store(0, ordering: .releasing) }

    /// Writes `FINDING (target): what: <length> bytes, hex: ...` to standard output; async-signal-safe.
    static func print(_ what: StaticString) {
        var length = 0
        func put(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                hexOut[length] = byte
                length += 1
            }
        }
        func put(_ text: StaticString) { put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
        put("\nFINDING (")
        put(UnsafeRawBufferPointer(start: target, count: strnlen(target, 63)))
        put("): ")
        put(what)
        put(": ")
        var digits: [UInt8] = []
        var number = count
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(number % 10))
            number /= 10
        } while number > 0
        for digit in digits.reversed() {
            hexOut[length] = digit
            length += 1
        }
        put(" bytes, hex: ")
        let hex: StaticString = "0123456789abcdef"
        for index in 0..<min(count, printedBytes) {
            hexOut[length] = hex.utf8Start[Int(buffer[index] >> 4)]
            hexOut[length + 1] = hex.utf8Start[Int(buffer[index] & 0xF)]
            length += 2
        }
        if count > printedBytes { put("...") }
        put("\n")
        _ = write(1, hexOut, length)
    }
}

/// A trap (SIGILL on x86, SIGTRAP on ARM), an abort or a bad access: print the input, exit 1.
func installCrashHandlers() {
    for signal in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
        Foundation.signal(signal) { _ in
            CurrentInput.print("crash (signal)")
            _exit(1)
        }
    }
}

/// A thread that ends the run when one execution takes longer than `bound` seconds.
func startHangWatchdog(bound: Double) {
    let limit = UInt64(bound * 1e9)
    let thread = Thread {
        while true {
            Thread.sleep(forTimeInterval: 0.05)
            let started = CurrentInput.started.load(ordering: .acquiring)
            if started != 0, DispatchTime.now().uptimeNanoseconds &- started > limit {
                CurrentInput.print("hang (one input ran past the per-input bound)")
                _exit(1)
            }
        }
    }
    thread.start()
}
