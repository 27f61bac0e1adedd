extension ErrorCatalogue {
    /// Issue 64: INITIATE_BROWSER_PAYMENT's own errors (the order's, such as an order already
    /// paid, are those of every initial transaction).
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
                name: "PayPal confirmation at the merchant",
                error: BrowserPaymentError.confirmation("CONFIRM_AT_MERCHANT"),
                when: "`browserPayment.paypal.paymentConfirmation` is CONFIRM_AT_MERCHANT (CONFIRM_BROWSER_PAYMENT is not offered yet).",
                whatToDo: "Send CONFIRM_AT_PROVIDER, or leave the field out: the payer confirms at PayPal."
            ),
            Entry(
                name: "Browser payments in production",
                error: BrowserPaymentError.notSimulated,
                when: "A gateway in production mode (no simulated provider) gets INITIATE_BROWSER_PAYMENT.",
                whatToDo: "Use a sandbox-mode gateway for browser payments."
            ),
        ]
    }
}
