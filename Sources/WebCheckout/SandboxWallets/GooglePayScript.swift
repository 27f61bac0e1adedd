/// `/sandbox/googlepay/pay.js`: a drop-in for Google's `https://pay.google.com/gp/p/js/pay.js`
/// in browsers without Google Pay (headless Chromium in CI). It defines
/// `google.payments.api.PaymentsClient` as Google's reference has it (`isReadyToPay`,
/// `loadPaymentData`, `createButton`, `prefetchPaymentData`, `paymentDataCallbacks`) and shows a
/// small sheet of its own; the token comes from the gateway, minted for the merchant the
/// request's `tokenizationSpecification.parameters.gatewayMerchantId` names. Kept as text so the
/// static binary needs no resources.
///
/// ES2017, no dependencies. The sheet is an `aria-modal` dialog (Escape or Cancel closes it, and
/// `loadPaymentData` rejects with `{statusCode: "CANCELED"}` as Google's does); its styles go in
/// a constructed style sheet, so a page's CSP without `'unsafe-inline'` keeps them.
enum GooglePayScript {
    static let source = #"""
        /* Google Pay gateway sandbox: google.payments.api.PaymentsClient for browsers without Google Pay. TEST ONLY. */
        (function () {
          'use strict';
          var google = window.google = window.google || {};
          google.payments = google.payments || {};
          google.payments.api = google.payments.api || {};
          if (google.payments.api.PaymentsClient && google.payments.api.PaymentsClient.isGatewaySandbox) return;
          var SCRIPT_PATH = '/sandbox/googlepay/pay.js';
          var CARDS = \#(SandboxWalletCard.googlePayScriptList);
          var AUTH_METHODS = ['PAN_ONLY', 'CRYPTOGRAM_3DS'];
          var NETWORKS = ['AMEX', 'DISCOVER', 'ELECTRON', 'ELO', 'ELO_DEBIT', 'INTERAC', 'JCB', 'MAESTRO', 'MASTERCARD', 'VISA'];
          var PRICE_STATUSES = ['NOT_CURRENTLY_KNOWN', 'ESTIMATED', 'FINAL'];

          // The gateway is where this script came from (path prefix included).
          function gatewayBase() {
            var script = document.currentScript;
            var src = script && script.src;
            if (!src || src.indexOf(SCRIPT_PATH) < 0) {
              var tags = document.querySelectorAll('script[src*="' + SCRIPT_PATH + '"]');
              src = tags.length ? tags[tags.length - 1].src : location.href;
            }
            var absolute = new URL(src, location.href).href;
            var at = absolute.indexOf(SCRIPT_PATH);
            return at >= 0 ? absolute.slice(0, at) : new URL(absolute).origin;
          }
          var GATEWAY = gatewayBase();
          var open = null;

          // Google rejects with a plain PaymentsError object, not an Error.
          function paymentsError(statusCode, statusMessage) { return { statusCode: statusCode, statusMessage: statusMessage }; }
          function developerError(message) { return paymentsError('DEVELOPER_ERROR', message); }

          // The request as Google checks it; throws a PaymentsError naming what is wrong.
          function checkVersion(request, name) {
            if (!request || typeof request !== 'object') throw developerError(name + ' must be an object');
            if (request.apiVersion !== 2) throw paymentsError('DEVELOPER_ERROR', name + '.apiVersion must be 2 (this sandbox speaks API version 2)');
            if (request.apiVersionMinor !== 0) throw developerError(name + '.apiVersionMinor must be 0');
            if (!Array.isArray(request.allowedPaymentMethods) || !request.allowedPaymentMethods.length) {
              throw developerError(name + '.allowedPaymentMethods must list at least one payment method');
            }
          }
          function cardMethod(request, name, needTokenization) {
            var methods = request.allowedPaymentMethods.filter(function (method) { return method && method.type === 'CARD'; });
            if (!methods.length) throw developerError(name + '.allowedPaymentMethods has no CARD method (the only type this sandbox offers)');
            var method = methods[0];
            var parameters = method.parameters || {};
            var auth = parameters.allowedAuthMethods;
            if (!Array.isArray(auth) || !auth.length || auth.some(function (a) { return AUTH_METHODS.indexOf(a) < 0; })) {
              throw developerError('CARD parameters.allowedAuthMethods must list PAN_ONLY and/or CRYPTOGRAM_3DS');
            }
            var networks = parameters.allowedCardNetworks;
            if (!Array.isArray(networks) || !networks.length || networks.some(function (n) { return NETWORKS.indexOf(n) < 0; })) {
              throw developerError('CARD parameters.allowedCardNetworks must list networks among ' + NETWORKS.join(', '));
            }
            if (needTokenization) {
              var spec = method.tokenizationSpecification;
              if (!spec || spec.type !== 'PAYMENT_GATEWAY') {
                throw developerError('CARD tokenizationSpecification.type must be PAYMENT_GATEWAY: the sandbox mints tokens for a gateway');
              }
              var given = spec.parameters || {};
              if (!given.gateway) throw developerError('tokenizationSpecification.parameters.gateway is required');
              if (!given.gatewayMerchantId) throw developerError('tokenizationSpecification.parameters.gatewayMerchantId is required');
            }
            return method;
          }
          function checkTransaction(info) {
            if (!info || typeof info !== 'object') throw developerError('paymentDataRequest.transactionInfo is required');
            if (!/^[A-Z]{3}$/.test(String(info.currencyCode || ''))) throw developerError('transactionInfo.currencyCode must be an ISO 4217 code');
            if (PRICE_STATUSES.indexOf(info.totalPriceStatus) < 0) {
              throw developerError('transactionInfo.totalPriceStatus must be one of ' + PRICE_STATUSES.join(', '));
            }
            if (info.totalPriceStatus !== 'NOT_CURRENTLY_KNOWN' && !/^[0-9]+(\.[0-9]{1,3})?$/.test(String(info.totalPrice || ''))) {
              throw developerError('transactionInfo.totalPrice must be a decimal like "12.34"');
            }
          }
          // The sheet's choices: each sandbox card the request allows, once per allowed auth method.
          function choices(method) {
            var list = [];
            CARDS.forEach(function (card) {
              if (method.parameters.allowedCardNetworks.indexOf(card.network) < 0) return;
              method.parameters.allowedAuthMethods.forEach(function (auth) {
                list.push({ card: card, authMethod: auth,
                  label: card.name + ' •••• ' + card.lastFour + (auth === 'CRYPTOGRAM_3DS' ? ' (device token)' : '') });
              });
            });
            return list;
          }
          function sandboxAddress(format) {
            var address = { name: 'Sandbox Payer', postalCode: '94043', countryCode: 'US' };
            if (format === 'FULL') {
              address.address1 = '1600 Amphitheatre Parkway'; address.address2 = ''; address.address3 = '';
              address.locality = 'Mountain View'; address.administrativeArea = 'CA'; address.sortingCode = '';
            }
            return address;
          }
          function money(amount, currency) {
            try {
              return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency }).format(Number(amount));
            } catch (e) {
              return amount + ' ' + currency;
            }
          }
          function post(path, body) {
            return fetch(GATEWAY + path, {
              method: 'POST', mode: 'cors', credentials: 'omit', cache: 'no-store',
              headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body)
            }).then(function (response) {
              return response.json().catch(function () { return {}; }).then(function (json) {
                if (response.ok) return json;
                throw json && json.statusCode ? json : paymentsError('INTERNAL_ERROR', 'The sandbox answered ' + response.status);
              });
            }, function () { throw paymentsError('INTERNAL_ERROR', 'The sandbox could not be reached at ' + GATEWAY); });
          }

          var CSS = [
            '.gpsbx-backdrop{position:fixed;top:0;right:0;bottom:0;left:0;z-index:2147483647;display:flex;align-items:center;',
            'justify-content:center;background:rgba(32,33,36,.6);font:16px/1.4 Roboto,system-ui,"Segoe UI",Arial,sans-serif}',
            '.gpsbx-sheet{box-sizing:border-box;width:min(92vw,400px);max-height:92vh;overflow:auto;background:#fff;color:#202124;',
            'border-radius:8px;padding:20px;box-shadow:0 4px 24px rgba(0,0,0,.35);text-align:left}',
            '.gpsbx-sheet *{box-sizing:border-box;font:inherit;color:inherit;letter-spacing:normal;text-transform:none}',
            '.gpsbx-title{margin:0 0 4px;font-size:20px;font-weight:500}',
            '.gpsbx-note{margin:0 0 14px;font-size:13px;color:#5f6368}',
            '.gpsbx-rows{display:grid;grid-template-columns:1fr auto;margin:0 0 12px;padding:0}',
            '.gpsbx-rows dt,.gpsbx-rows dd{margin:0;padding:6px 0;border-bottom:1px solid #dadce0}',
            '.gpsbx-rows dt{color:#5f6368;padding-right:12px}.gpsbx-rows dd{text-align:right;font-weight:500}',
            '.gpsbx-cards{border:0;margin:0 0 12px;padding:0}.gpsbx-cards legend{padding:0;margin:0 0 6px;font-weight:500}',
            '.gpsbx-cards label{display:flex;align-items:center;gap:8px;padding:4px 0;cursor:pointer}',
            '.gpsbx-status{min-height:1.4em;margin:0 0 12px;font-size:14px}.gpsbx-error{color:#b3261e}',
            '.gpsbx-actions{display:flex;gap:10px}',
            '.gpsbx-actions button{flex:1;min-height:44px;border-radius:4px;border:1px solid #202124;cursor:pointer;font-weight:500}',
            '.gpsbx-cancel{background:#fff;color:#202124}.gpsbx-pay{background:#1a73e8;color:#fff;border-color:#1a73e8!important}',
            '.gpsbx-actions button:disabled{cursor:not-allowed;background:#e8eaed;color:#5f6368;border-color:#9aa0a6!important}',
            '.gpsbx-sheet :focus-visible{outline:3px solid #1a73e8;outline-offset:2px}',
            '.gpsbx-button{display:inline-flex;align-items:center;justify-content:center;box-sizing:border-box;min-width:150px;',
            'height:40px;padding:0 16px;border-radius:4px;border:1px solid #000;background:#000;color:#fff;',
            'font:500 16px Roboto,system-ui,sans-serif;cursor:pointer}',
            '.gpsbx-button.gpsbx-white{background:#fff;color:#3c4043;border-color:#dadce0}.gpsbx-button.gpsbx-fill{width:100%}'
          ].join('');
          var styled = false;
          function addStyles() {
            if (styled) return;
            styled = true;
            try {
              var sheet = new CSSStyleSheet();
              sheet.replaceSync(CSS);
              document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
            } catch (e) {
              var style = document.createElement('style');
              style.textContent = CSS;
              document.head.appendChild(style);
            }
          }
          function element(tag, attributes, children) {
            var node = document.createElement(tag);
            Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
            (children || []).forEach(function (child) {
              node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
            });
            return node;
          }

          // One payment: the sheet and the promise loadPaymentData returned.
          function Payment(client, request, method, resolve, reject) {
            var self = this;
            this.client = client;
            this.request = request;
            this.method = method;
            this.resolve = resolve;
            this.reject = reject;
            this.info = request.transactionInfo;
            this.options = choices(method);
            this.choice = this.options[0];
            this.busy = false;
            this.returnFocus = document.activeElement;
            addStyles();
            this.rows = element('dl', { 'class': 'gpsbx-rows' });
            this.status = element('p', { 'class': 'gpsbx-status', role: 'status', 'aria-live': 'polite' });
            this.cancelButton = element('button', { type: 'button', 'class': 'gpsbx-cancel' }, ['Cancel']);
            var verb = (request.transactionInfo.checkoutOption === 'COMPLETE_IMMEDIATE_PURCHASE') ? 'Pay' : 'Continue';
            this.payButton = element('button', { type: 'button', 'class': 'gpsbx-pay' }, [verb]);
            var cards = element('fieldset', { 'class': 'gpsbx-cards' }, [element('legend', {}, ['Payment method'])]);
            this.options.forEach(function (option, index) {
              var value = option.card.id + ':' + option.authMethod;
              var radio = element('input', { type: 'radio', name: 'gpsbx-card', value: value });
              radio.checked = index === 0;
              radio.addEventListener('change', function () { self.choice = option; });
              cards.appendChild(element('label', {}, [radio, option.label]));
            });
            this.dialog = element('div', {
              'class': 'gpsbx-sheet', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'gpsbx-title', 'aria-describedby': 'gpsbx-note'
            }, [
              element('h2', { id: 'gpsbx-title', 'class': 'gpsbx-title' }, ['Google Pay']),
              element('p', { id: 'gpsbx-note', 'class': 'gpsbx-note' }, ['Sandbox: test cards only, nothing is charged.']),
              this.rows, cards, this.status,
              element('div', { 'class': 'gpsbx-actions' }, [this.cancelButton, this.payButton])
            ]);
            this.root = element('div', { 'class': 'gpsbx-backdrop' }, [this.dialog]);
            this.cancelButton.addEventListener('click', function () { self.cancel(); });
            this.payButton.addEventListener('click', function () { self.pay(); });
            document.body.appendChild(this.root);
            this.render();
            (this.dialog.querySelector('input:checked') || this.cancelButton).focus();
          }
          Payment.prototype.render = function () {
            var info = this.info;
            var merchant = (this.request.merchantInfo && this.request.merchantInfo.merchantName) || location.hostname;
            var rows = [['Merchant', merchant]];
            (info.displayItems || []).forEach(function (item) { rows.push([String(item.label), money(item.price, info.currencyCode)]); });
            rows.push([info.totalPriceLabel || 'Total',
              info.totalPriceStatus === 'NOT_CURRENTLY_KNOWN' ? '—' : money(info.totalPrice, info.currencyCode)]);
            while (this.rows.firstChild) this.rows.removeChild(this.rows.firstChild);
            var list = this.rows;
            rows.forEach(function (row) {
              list.appendChild(element('dt', {}, [row[0]]));
              list.appendChild(element('dd', {}, [row[1]]));
            });
          };
          Payment.prototype.say = function (text, isError) {
            this.status.textContent = text;
            this.status.className = isError ? 'gpsbx-status gpsbx-error' : 'gpsbx-status';
          };
          Payment.prototype.setBusy = function (busy) {
            this.busy = busy;
            if (busy) this.payButton.setAttribute('disabled', ''); else this.payButton.removeAttribute('disabled');
          };
          Payment.prototype.close = function () {
            open = null;
            if (this.root.parentNode) this.root.parentNode.removeChild(this.root);
            if (this.returnFocus && this.returnFocus.focus) { try { this.returnFocus.focus(); } catch (e) { /* gone */ } }
          };
          Payment.prototype.cancel = function () {
            if (open !== this) return;
            this.close();
            this.reject(paymentsError('CANCELED', 'User closed the Payment Request UI.'));
          };
          Payment.prototype.fail = function (error) {
            if (open !== this) return;
            this.close();
            this.reject(error);
          };
          Payment.prototype.pay = function () {
            if (this.busy || open !== this || !this.choice) return;
            var self = this;
            var request = this.request;
            var parameters = this.method.tokenizationSpecification.parameters;
            this.setBusy(true);
            this.say('Processing…');
            post('/sandbox/googlepay/payment-data', {
              gateway: String(parameters.gateway), gatewayMerchantId: String(parameters.gatewayMerchantId),
              card: this.choice.card.id, authMethod: this.choice.authMethod
            }).then(function (answer) {
              if (open !== self) return;
              var paymentData = { apiVersion: 2, apiVersionMinor: 0, paymentMethodData: answer.paymentMethodData };
              var cardParameters = self.method.parameters;
              if (cardParameters.billingAddressRequired) {
                var format = (cardParameters.billingAddressParameters || {}).format || 'MIN';
                paymentData.paymentMethodData.info.billingAddress = sandboxAddress(format);
              }
              if (cardParameters.assuranceDetailsRequired) {
                paymentData.paymentMethodData.info.assuranceDetails = { accountVerified: true, cardHolderAuthenticated: false };
              }
              if (request.emailRequired) paymentData.email = 'payer@example.com';
              if (request.shippingAddressRequired) paymentData.shippingAddress = sandboxAddress('FULL');
              self.authorize(paymentData);
            }, function (error) {
              self.fail(error);
            });
          };
          // With the PAYMENT_AUTHORIZATION intent the merchant's callback decides, as in Google's sheet.
          Payment.prototype.authorize = function (paymentData) {
            var self = this;
            var callbacks = this.client.callbacks;
            var intents = this.request.callbackIntents || [];
            if (intents.indexOf('PAYMENT_AUTHORIZATION') < 0 || typeof callbacks.onPaymentAuthorized !== 'function') {
              this.close();
              this.resolve(paymentData);
              return;
            }
            this.say('Waiting for the merchant…');
            Promise.resolve().then(function () { return callbacks.onPaymentAuthorized(paymentData); }).then(function (result) {
              if (open !== self) return;
              if (result && result.transactionState === 'SUCCESS') {
                self.close();
                self.resolve(paymentData);
                return;
              }
              var message = (result && result.error && result.error.message) || 'The payment was not completed.';
              self.say(message + ' Try again or cancel.', true);
              self.setBusy(false);
            }, function () {
              if (open !== self) return;
              self.say('The merchant could not complete the payment. Try again or cancel.', true);
              self.setBusy(false);
            });
          };
          // The INITIALIZE callback of onPaymentDataChanged: the merchant may change the total.
          Payment.prototype.initialize = function () {
            var self = this;
            var callbacks = this.client.callbacks;
            var intents = this.request.callbackIntents || [];
            var changing = intents.some(function (intent) { return ['SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER'].indexOf(intent) >= 0; });
            if (!changing || typeof callbacks.onPaymentDataChanged !== 'function') return;
            var data = { callbackTrigger: 'INITIALIZE' };
            if (this.request.shippingAddressRequired) data.shippingAddress = sandboxAddress('MIN');
            Promise.resolve().then(function () { return callbacks.onPaymentDataChanged(data); }).then(function (update) {
              if (open !== self || !update) return;
              if (update.newTransactionInfo) {
                try { checkTransaction(update.newTransactionInfo); self.info = update.newTransactionInfo; self.render(); }
                catch (error) { console.error(error); }
              }
              if (update.error && update.error.message) self.say(update.error.message, true);
            }, function (error) { console.error(error); });
          };

          function PaymentsClient(options) {
            if (!(this instanceof PaymentsClient)) throw new TypeError("Class constructor PaymentsClient cannot be invoked without 'new'");
            options = options || {};
            var environment = options.environment || 'TEST';
            if (environment !== 'TEST' && environment !== 'PRODUCTION') {
              throw developerError('PaymentOptions.environment must be TEST or PRODUCTION');
            }
            this.environment = environment;
            this.callbacks = options.paymentDataCallbacks || {};
            this.merchantInfo = options.merchantInfo || null;
          }
          PaymentsClient.isGatewaySandbox = true;
          PaymentsClient.prototype.isReadyToPay = function (request) {
            return new Promise(function (resolve, reject) {
              try {
                checkVersion(request, 'isReadyToPayRequest');
                var method = cardMethod(request, 'isReadyToPayRequest', false);
                var answer = { result: choices(method).length > 0 };
                if (request.existingPaymentMethodRequired) answer.paymentMethodPresent = answer.result;
                resolve(answer);
              } catch (error) {
                reject(error);
              }
            });
          };
          PaymentsClient.prototype.prefetchPaymentData = function (request) {
            try {
              checkVersion(request, 'paymentDataRequest');
              cardMethod(request, 'paymentDataRequest', true);
            } catch (error) {
              console.error('prefetchPaymentData: ' + error.statusMessage);
            }
          };
          PaymentsClient.prototype.loadPaymentData = function (request) {
            var client = this;
            return new Promise(function (resolve, reject) {
              var method;
              try {
                checkVersion(request, 'paymentDataRequest');
                method = cardMethod(request, 'paymentDataRequest', true);
                checkTransaction(request.transactionInfo);
                if ((request.callbackIntents || []).indexOf('PAYMENT_AUTHORIZATION') >= 0 && typeof client.callbacks.onPaymentAuthorized !== 'function') {
                  throw developerError('callbackIntents PAYMENT_AUTHORIZATION needs paymentDataCallbacks.onPaymentAuthorized in the PaymentsClient');
                }
              } catch (error) {
                reject(error);
                return;
              }
              if (open) { reject(developerError('A Google Pay payment sheet is already open on this page')); return; }
              if (!choices(method).length) { reject(paymentsError('BUYER_ACCOUNT_ERROR', 'No sandbox card matches allowedCardNetworks')); return; }
              open = new Payment(client, request, method, resolve, reject);
              open.initialize();
            });
          };
          // A div holding Google's button (a <button>), as Google's createButton returns it.
          PaymentsClient.prototype.createButton = function (options) {
            options = options || {};
            if (typeof options.onClick !== 'function') throw developerError('ButtonOptions.onClick must be a function');
            addStyles();
            var color = options.buttonColor === 'white' ? ' gpsbx-white' : '';
            var fill = options.buttonSizeMode === 'fill' ? ' gpsbx-fill' : '';
            var type = options.buttonType || 'buy';
            var words = { book: 'Book with', buy: 'Buy with', checkout: 'Checkout with', donate: 'Donate with',
              order: 'Order with', pay: 'Pay with', subscribe: 'Subscribe with' }[type];
            var label = words ? words + ' GPay' : 'GPay';
            var button = element('button', { type: 'button', 'class': 'gpay-button gpsbx-button' + color + fill,
              'aria-label': 'Google Pay' }, [label]);
            if (options.buttonRadius !== undefined) button.style.borderRadius = Number(options.buttonRadius) + 'px';
            button.addEventListener('click', function (event) { options.onClick(event); });
            var container = element('div', { 'class': 'gpay-button-container' }, [button]);
            return container;
          };
          google.payments.api.PaymentsClient = PaymentsClient;
          // Escape closes the sheet even when focus left it.
          document.addEventListener('keydown', function (event) {
            if (open && event.key === 'Escape') { event.preventDefault(); open.cancel(); }
          });
        })();

        """#
}
