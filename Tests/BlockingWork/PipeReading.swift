import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension FileHandle {
    /// What one read(2) returns: at least one byte, or empty at end of file. Unlike
    /// `availableData`, a signal that interrupts the read (a child process exiting) is retried;
    /// Foundation's version stops the test process with a fatal error on EINTR.
    public func readChunk() -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Everything up to end of file, retrying interrupted reads (see `readChunk`).
    public func readToEndOfFile() -> Data {
        var data = Data()
        while case let chunk = readChunk(), !chunk.isEmpty { data.append(chunk) }
        return data
    }
}
