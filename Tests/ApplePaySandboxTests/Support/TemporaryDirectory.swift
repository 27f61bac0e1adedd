import Foundation

/// A fresh, not yet created, path under the system temporary directory; callers remove it with `defer`.
func makeTemporaryDirectoryURL() -> URL {
    FileManager.default.temporaryDirectory.appending(path: "applepay-sandbox-\(UUID().uuidString)")
}

func removeTemporaryDirectory(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
}
