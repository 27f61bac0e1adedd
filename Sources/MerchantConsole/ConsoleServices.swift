import Foundation
import GatewayCore

/// What Merchant Administration runs on, handed in by the server's assembly: the console's own
/// store, the transaction store and processors the API uses, and the merchants.
package struct ConsoleServices: Sendable {
    package var store: any ConsoleStore
    package var transactions: any TransactionStore
    package var merchants: [String: Merchant]
    /// The same processor as the API's follow-ons: the console's CAPTURE, VOID and REFUND obey
    /// the same rules.
    package var orderOperations: OrderOperationProcessor
    package var fingerprinter: RequestFingerprinter
    /// How the transactions the console makes are stored (the MPGS API's format).
    package var encoding: any TransactionResponseEncoding
    package var policy: ConsolePolicy
    /// Shared by every listener's console, so that password checks take one core at most.
    package var passwordChecks: PasswordCheckQueue
    /// Adds `Secure` to cookies (the console is served over TLS).
    package var secureCookies: Bool
    package var clock: @Sendable () -> Date
    /// The merchants' Apple Pay payment processing keys; nil hides the certificate page.
    package var identities: (any ApplePayIdentityManaging)?
    /// Sandbox mode's test payments; nil (production) hides the sandbox page.
    package var sandbox: (any SandboxPaymentRunning)?
    /// The notification outbox, for the delivery log on the integration page; nil: none.
    package var outbox: (any NotificationOutbox)?
    /// Issue 64: operators' decisions on payments held for risk review; nil hides the review form.
    package var riskReviews: RiskReviewProcessor?

    package init(
        store: any ConsoleStore,
        transactions: any TransactionStore,
        merchants: [String: Merchant],
        orderOperations: OrderOperationProcessor,
        fingerprinter: RequestFingerprinter,
        encoding: any TransactionResponseEncoding,
        policy: ConsolePolicy = ConsolePolicy(),
        passwordChecks: PasswordCheckQueue = PasswordCheckQueue(),
        secureCookies: Bool = false,
        clock: @escaping @Sendable () -> Date = { Date() },
        identities: (any ApplePayIdentityManaging)? = nil,
        sandbox: (any SandboxPaymentRunning)? = nil,
        outbox: (any NotificationOutbox)? = nil,
        riskReviews: RiskReviewProcessor? = nil
    ) {
        self.store = store
        self.transactions = transactions
        self.merchants = merchants
        self.orderOperations = orderOperations
        self.fingerprinter = fingerprinter
        self.encoding = encoding
        self.policy = policy
        self.passwordChecks = passwordChecks
        self.secureCookies = secureCookies
        self.clock = clock
        self.identities = identities
        self.sandbox = sandbox
        self.outbox = outbox
        self.riskReviews = riskReviews
    }
}
