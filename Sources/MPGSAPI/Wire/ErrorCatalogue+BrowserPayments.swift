import GatewayCore

extension ErrorCatalogue {
    /// Issue 64: INITIATE_BROWSER_PAYMENT's and CONFIRM_BROWSER_PAYMENT's own errors (the
    /// order's, such as an order already paid, are those of every initial transaction).
    static var browserPaymentEntries: [Entry] {
        [
            Entry(
                name: "Browser payment operation",
                error: BrowserPaymentError.operation("VERIFY"),
                when: "`browserPayment.operation` is not AUTHORIZE or PAY.",
                whatToDo: "Send AUTHORIZE (capture later) or PAY."
            ),
            Entry(
                name: "Browser payment return URL",
                error: BrowserPaymentError.returnURL("shop"),
                when: "`browserPayment.returnUrl` is not an http(s) URL longer than 11 characters.",
                whatToDo: "Send the absolute URL of the page the payer's browser returns to."
            ),
            Entry(
                name: "Browser payment source of funds",
                error: BrowserPaymentError.sourceType("CARD"),
                when: "An INITIATE_BROWSER_PAYMENT whose `sourceOfFunds.type` is not BROWSER_PAYMENT (or PAYPAL, before version 50).",
                whatToDo: "Send BROWSER_PAYMENT with `sourceOfFunds.browserPayment.type` PAYPAL."
            ),
            Entry(
                name: "Browser payment provider",
                error: BrowserPaymentError.provider("ALIPAY"),
                when: "`sourceOfFunds.browserPayment.type` names a provider this gateway does not simulate.",
                whatToDo: "Use PAYPAL."
            ),
            Entry(
                name: "Browser payments in production",
                error: BrowserPaymentError.notSimulated(.initiate),
                when: "A gateway in production mode (no simulated provider) gets INITIATE_, CONFIRM_ or UPDATE_BROWSER_PAYMENT.",
                whatToDo: "Use a sandbox-mode gateway for browser payments."
            ),
        ] + browserPaymentConfirmEntries
    }

    /// CONFIRM_BROWSER_PAYMENT's refusals (the first three UPDATE_BROWSER_PAYMENT's too): each changes nothing.
    private static var browserPaymentConfirmEntries: [Entry] {
        [
            Entry(
                name: "Confirm or update: no such order",
                error: BrowserPaymentError.confirm(.orderNotFound("o-1")),
                when: "CONFIRM_BROWSER_PAYMENT or UPDATE_BROWSER_PAYMENT on an order id with no transactions.",
                whatToDo: "Confirm on the order INITIATE_BROWSER_PAYMENT named."
            ),
            Entry(
                name: "Confirm or update: no such browser payment",
                error: BrowserPaymentError.confirm(.transactionNotFound("t-2")),
                when: "CONFIRM_ or UPDATE_BROWSER_PAYMENT under a transaction id the order lacks (the payer is still at PayPal, or another id).",
                whatToDo: "Use the initiate's transaction id, after the payer returned to `browserPayment.returnUrl`."
            ),
            Entry(
                name: "Confirm or update: not a browser payment",
                error: BrowserPaymentError.confirm(.notBrowserPayment("t-1")),
                when: "CONFIRM_ or UPDATE_BROWSER_PAYMENT naming a card or wallet payment, or a follow-on.",
                whatToDo: "Name the browser payment's own transaction id."
            ),
            Entry(
                name: "Confirm: confirmed at PayPal",
                error: BrowserPaymentError.confirm(.confirmedAtProvider),
                when: "CONFIRM_BROWSER_PAYMENT on a payment initiated with CONFIRM_AT_PROVIDER (or none): the payer's approval completed it.",
                whatToDo: "Nothing to do: Retrieve Transaction shows its outcome. Initiate with CONFIRM_AT_MERCHANT to confirm on your site."
            ),
            Entry(
                name: "Confirm: cancelled by the payer",
                error: BrowserPaymentError.confirm(.cancelledByPayer),
                when: "CONFIRM_BROWSER_PAYMENT on a payment the payer cancelled at PayPal.",
                whatToDo: "Initiate a new browser payment (a new transaction id) if the payer wants to pay."
            ),
            Entry(
                name: "Confirm: already confirmed",
                error: BrowserPaymentError.confirm(.alreadyConfirmed),
                when: "A second CONFIRM_BROWSER_PAYMENT, with another body, on a payment already confirmed.",
                whatToDo: "Retrieve the transaction; an identical retry of the confirmation gets its stored answer."
            ),
            Entry(
                name: "Confirm: currency changed",
                error: BrowserPaymentError.confirm(.currencyChanged(Currency(code: "EUR")!, paymentCurrency: Currency(code: "USD")!)),
                when: "CONFIRM_BROWSER_PAYMENT with an `order.currency` other than the payment's.",
                whatToDo: "Send the payment's currency; only the amount may change."
            ),
        ]
    }
}
