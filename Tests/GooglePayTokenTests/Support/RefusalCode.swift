import GooglePayToken
import Testing

/// The code of the ``GooglePayTokenError`` that `body` throws; nil when it does not throw, and an
/// issue when it throws anything else (the library throws nothing else).
func refusalCode(_ body: () throws -> some Any) -> GooglePayTokenError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as GooglePayTokenError {
        return error.code
    } catch {
        Issue.record("threw \(error), not a GooglePayTokenError")
        return nil
    }
}
