/// The payment page's stylesheet and script, served from the gateway (`/checkout/assets/`), so
/// the page loads nothing from outside and needs no inline script. Kept as text so the static
/// binary needs no resources.
enum PaymentPageAssets {
    /// Plain, high-contrast, one column; a visible focus ring; fits a 360-pixel phone and an iframe.
    static let style = """
        *,*::before,*::after{box-sizing:border-box}
        body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1a1a1a;background:#f3f4f6}
        body.embedded{background:#fff}
        .checkout{max-width:30rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.15)}
        body.embedded .checkout{margin:0 auto;box-shadow:none;padding:1rem}
        h1{font-size:1.5rem;margin:0 0 .25rem}
        h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
        .logo{max-height:48px;max-width:12rem;display:block;margin-bottom:.5rem}
        .contact,.hint,.note{color:#4b5563;font-size:.875rem;margin:.25rem 0}
        .summary{border:1px solid #d1d5db;border-radius:8px;padding:.75rem 1rem;margin-top:1rem}
        .summary h2{margin-top:0}
        .items{padding-left:1.25rem;margin:.5rem 0}
        .total{display:flex;justify-content:space-between;font-size:1.125rem;margin:.5rem 0 0;border-top:1px solid #d1d5db;padding-top:.5rem}
        .message:empty{display:none}
        .message{margin:1rem 0 0;padding:.75rem 1rem;border-radius:8px;background:#fef2f2;border:1px solid #b91c1c;color:#7f1d1d}
        .field{margin:.75rem 0}
        .checkout label,.checkout legend{display:block;font-weight:600;margin-bottom:.25rem}
        fieldset.expiry{border:0;padding:0;margin:.75rem 0;display:flex;flex-wrap:wrap;gap:0 1rem}
        fieldset.expiry legend{width:100%}
        fieldset.expiry .field{margin:0}
        fieldset.expiry label{font-weight:400}
        .checkout input{width:100%;font:inherit;padding:.625rem .75rem;border:1px solid #6b7280;border-radius:6px;color:#111;background:#fff}
        .checkout input.short{width:7rem}
        .checkout input[aria-invalid="true"]{border:2px solid #b91c1c}
        .error{color:#b91c1c;font-size:.875rem;margin:.25rem 0 0}
        .checkout button{font:inherit;font-weight:600;border-radius:8px;padding:.75rem 1rem;width:100%;cursor:pointer}
        button.primary{background:#1d4ed8;color:#fff;border:0;margin-top:1rem}
        button.primary[disabled]{background:#4b5563;cursor:progress}
        button.secondary{background:#fff;color:#1f2937;border:1px solid #6b7280;margin-top:.75rem}
        button.apple-pay{background:#000;color:#fff;border:0;font-size:1.125rem;letter-spacing:.02em}
        .google-pay{margin-top:.75rem}.google-pay button{width:100%}
        .or{text-align:center;color:#4b5563;margin:.75rem 0}
        :focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
        @media (max-width:400px){.checkout{margin:0;border-radius:0;padding:1rem}}
        """

    /// The page's behaviour beyond plain forms: one submit at a time, focus on the first error,
    /// Apple Pay (shown only where `ApplePaySession` can pay), Google Pay (shown when
    /// `isReadyToPay` says so), the payer's time running out,
    /// and, in an iframe, telling the merchant page's script its height and how the page ended.
    static let script = #"""
        (function () {
          'use strict';
          function json(id) {
            var element = document.getElementById(id);
            if (!element) return null;
            try { return JSON.parse(element.textContent); } catch (e) { return null; }
          }
          var framed = window.parent && window.parent !== window;

          // The end of an embedded page: the merchant page's script decides what happens next.
          var ended = json('parent-message');
          if (ended) {
            if (framed) window.parent.postMessage(ended, '*');
            return;
          }
          var data = json('page-data');
          if (!data) return;

          function tellParentHeight() {
            if (!framed) return;
            window.parent.postMessage({ source: 'hosted-checkout', sessionId: data.sessionId, event: 'resize',
              height: Math.ceil(document.documentElement.scrollHeight) }, '*');
          }
          if (data.embedded) {
            tellParentHeight();
            window.addEventListener('resize', tellParentHeight);
            if (window.ResizeObserver) new ResizeObserver(tellParentHeight).observe(document.body);
          }

          var form = document.getElementById('card-form');
          var payButton = document.getElementById('pay-button');
          var message = document.getElementById('payment-message');
          var submitting = false;
          if (form) {
            form.addEventListener('submit', function (event) {
              if (submitting) { event.preventDefault(); return; }
              submitting = true;
              payButton.disabled = true;
              payButton.setAttribute('aria-busy', 'true');
              payButton.textContent = 'Processing…';
            });
            // Back from the browser's cache (the back button): the form may be used again.
            window.addEventListener('pageshow', function () {
              submitting = false;
              payButton.disabled = false;
              payButton.removeAttribute('aria-busy');
            });
          }
          var invalid = document.querySelector('input[aria-invalid="true"]');
          if (invalid) invalid.focus();

          function say(text) { if (message) message.textContent = text; }

          // The payer's time: at zero the page ends as a timeout (the gateway checks the time too).
          if (typeof data.secondsLeft === 'number') {
            setTimeout(function () {
              var cancel = document.getElementById('cancel-form');
              if (!cancel) return;
              cancel.querySelector('input[name="reason"]').value = 'timeout';
              cancel.submit();
            }, Math.max(0, data.secondsLeft) * 1000 + 1000);  // a second past the deadline, not before it
          }

          // Apple Pay: only where the browser (or the sandbox's sheet) can pay.
          var button = document.getElementById('apple-pay-button');
          var canPay = false;
          try { canPay = !!(data.applePay && window.ApplePaySession && window.ApplePaySession.canMakePayments()); } catch (e) { canPay = false; }
          function showWalletOr() {
            var or = document.getElementById('apple-pay-or');
            if (or) or.hidden = false;
          }
          if (button && canPay) {
            button.hidden = false;
            showWalletOr();
            button.addEventListener('click', payWithApplePay);
          }

          // Google Pay: Google's own sequence, isReadyToPay -> createButton -> loadPaymentData.
          var googleSlot = document.getElementById('google-pay-button');
          var googleApi = window.google && window.google.payments && window.google.payments.api;
          var googleClient = null;
          function googleCard(withTokenization) {
            var card = { type: 'CARD', parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
              allowedCardNetworks: ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'] } };
            if (withTokenization) {
              card.tokenizationSpecification = { type: 'PAYMENT_GATEWAY',
                parameters: { gateway: data.googlePay.gateway, gatewayMerchantId: data.googlePay.gatewayMerchantId } };
            }
            return card;
          }
          if (googleSlot && data.googlePay && googleApi && googleApi.PaymentsClient) {
            try {
              googleClient = new googleApi.PaymentsClient({ environment: 'TEST' });
              googleClient.isReadyToPay({ apiVersion: 2, apiVersionMinor: 0, allowedPaymentMethods: [googleCard(false)] }).then(function (ready) {
                if (!ready || !ready.result) return;
                googleSlot.appendChild(googleClient.createButton({ onClick: payWithGooglePay, buttonType: 'pay', buttonSizeMode: 'fill' }));
                googleSlot.hidden = false;
                showWalletOr();
              }, function () { /* no Google Pay here: the card form remains */ });
            } catch (e) { googleClient = null; }
          }

          function payWithGooglePay() {
            var offer = data.googlePay;
            googleClient.loadPaymentData({
              apiVersion: 2, apiVersionMinor: 0, allowedPaymentMethods: [googleCard(true)],
              merchantInfo: { merchantName: offer.merchantName },
              transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: offer.totalPrice, currencyCode: offer.currencyCode,
                checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE' }
            }).then(function (paymentData) {
              say('Processing…');
              return post('/checkout/googlepay/' + encodeURIComponent(data.sessionId) + '/pay',
                { formToken: data.formToken, paymentData: paymentData }).then(function (answer) {
                if (answer.result === 'SUCCESS' && answer.next) { window.location.href = answer.next; return; }
                say(answer.message || 'The payment was not completed. Try again or pay by card.');
              }, function () { say('The payment could not be sent. Check your connection and try again.'); });
            }, function (error) {
              if (error && error.statusCode === 'CANCELED') return;
              say('Google Pay could not be used: ' + ((error && error.statusMessage) || 'try again or pay by card.'));
            });
          }

          function post(path, body) {
            return fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
              body: JSON.stringify(body) }).then(function (response) {
              return response.json().then(function (answer) { answer.httpStatus = response.status; return answer; });
            });
          }

          function payWithApplePay() {
            var offer = data.applePay;
            var base = '/checkout/applepay/' + encodeURIComponent(data.sessionId);
            var session;
            try {
              session = new window.ApplePaySession(3, {
                countryCode: offer.countryCode, currencyCode: offer.currencyCode, total: offer.total,
                supportedNetworks: offer.supportedNetworks, merchantCapabilities: offer.merchantCapabilities
              });
            } catch (e) {
              say('Apple Pay is not available here. Pay by card instead.');
              return;
            }
            session.onvalidatemerchant = function (event) {
              post(base + '/validate', { formToken: data.formToken, validationURL: event.validationURL }).then(function (answer) {
                if (answer.httpStatus !== 200) { session.abort(); say(answer.message || 'Apple Pay could not be started.'); return; }
                delete answer.httpStatus;
                session.completeMerchantValidation(answer);
              }, function () { session.abort(); say('Apple Pay could not be started. Check your connection and try again.'); });
            };
            session.onpaymentauthorized = function (event) {
              post(base + '/pay', { formToken: data.formToken, paymentData: event.payment.token.paymentData }).then(function (answer) {
                if (answer.result === 'SUCCESS' && answer.next) {
                  session.completePayment(window.ApplePaySession.STATUS_SUCCESS);
                  window.location.href = answer.next;
                } else {
                  session.completePayment(window.ApplePaySession.STATUS_FAILURE);
                  say(answer.message || 'The payment was not completed. Try again or pay by card.');
                }
              }, function () {
                session.completePayment(window.ApplePaySession.STATUS_FAILURE);
                say('The payment could not be sent. Check your connection and try again.');
              });
            };
            session.oncancel = function () {};
            session.begin();
          }
        })();
        """#
}
