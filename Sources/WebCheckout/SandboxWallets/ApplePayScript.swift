/// `/sandbox/applepay/apple-pay.js`: a drop-in `window.ApplePaySession` for browsers without
/// Apple Pay (headless Chromium in CI), implementing Apple Pay JS as merchant pages call it, with
/// a small payment sheet of its own. Kept here as text so the static binary needs no resources.
///
/// ES2017, no dependencies. The sheet is an `aria-modal` dialog in the page (focus trapped,
/// Escape cancels, a "Cancel" and a "Pay" button); its styles go in a constructed style sheet,
/// so a page's Content-Security-Policy without `'unsafe-inline'` does not strip them.
enum ApplePayScript {
    static let source = #"""
        /* Apple Pay Gateway sandbox: ApplePaySession for browsers without Apple Pay. TEST ONLY. */
        (function () {
          'use strict';
          if (window.ApplePaySession && window.ApplePaySession.isGatewaySandbox) return;
          var SCRIPT_PATH = '/sandbox/applepay/apple-pay.js';
          var CARDS = \#(SandboxWalletCard.scriptList);
          var NETWORKS = ['amex', 'bancomat', 'bancontact', 'cartesbancaires', 'chinaunionpay', 'dankort', 'discover',
            'eftpos', 'electron', 'elo', 'girocard', 'interac', 'jcb', 'mada', 'maestro', 'mastercard', 'mir',
            'privatelabel', 'visa', 'vpay', 'meeza', 'napas', 'bankaxept', 'postfinance', 'pagobancomat', 'tmoney',
            'waon', 'id', 'nanaco', 'suica', 'quicpay', 'himyan', 'jaywan'];
          var CAPABILITIES = ['supports3DS', 'supportsEMV', 'supportsCredit', 'supportsDebit', 'supportsInstantFundsOut'];
          var STATUS = {
            STATUS_SUCCESS: 0, STATUS_FAILURE: 1, STATUS_INVALID_BILLING_POSTAL_ADDRESS: 2,
            STATUS_INVALID_SHIPPING_POSTAL_ADDRESS: 3, STATUS_INVALID_SHIPPING_CONTACT: 4,
            STATUS_PIN_REQUIRED: 5, STATUS_PIN_INCORRECT: 6, STATUS_PIN_LOCKOUT: 7
          };
          var VALIDATION_TIMEOUT = 30000;

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
          var active = null;

          function domError(message, name) {
            try { return new DOMException(message, name); } catch (e) { var error = new Error(message); error.name = name; return error; }
          }
          function required(value, dictionary, member, type) {
            if (value === undefined || value === null) {
              throw new TypeError('Member ' + dictionary + '.' + member + ' is required and must be an instance of ' + type);
            }
          }
          function validateLineItem(item, name) {
            required(item, 'ApplePayPaymentRequest', name, 'ApplePayLineItem');
            required(item.label, 'ApplePayLineItem', 'label', 'DOMString');
            required(item.amount, 'ApplePayLineItem', 'amount', 'DOMString');
            if (!/^-?[0-9]+(\.[0-9]+)?$/.test(String(item.amount))) throw new TypeError('"' + item.amount + '" is not a valid amount.');
            return { label: String(item.label), amount: String(item.amount), type: item.type || 'final' };
          }
          // As Safari checks the request in `new ApplePaySession(version, request)`.
          function validateRequest(request) {
            if (!request || typeof request !== 'object') {
              throw new TypeError("Argument 2 ('paymentRequest') to the ApplePaySession constructor must be an object");
            }
            required(request.countryCode, 'ApplePayPaymentRequest', 'countryCode', 'DOMString');
            if (!/^[A-Z]{2}$/.test(String(request.countryCode))) throw new TypeError('"' + request.countryCode + '" is not a valid country code.');
            required(request.currencyCode, 'ApplePayPaymentRequest', 'currencyCode', 'DOMString');
            if (!/^[A-Z]{3}$/.test(String(request.currencyCode))) throw new TypeError('"' + request.currencyCode + '" is not a valid currency code.');
            required(request.supportedNetworks, 'ApplePayPaymentRequest', 'supportedNetworks', 'sequence');
            if (!Array.isArray(request.supportedNetworks) || request.supportedNetworks.length === 0) {
              throw new TypeError('At least one supported network must be provided.');
            }
            request.supportedNetworks.forEach(function (network) {
              if (NETWORKS.indexOf(String(network).toLowerCase()) < 0) throw new TypeError('"' + network + '" is not a valid payment network.');
            });
            required(request.merchantCapabilities, 'ApplePayPaymentRequest', 'merchantCapabilities', 'sequence');
            if (!Array.isArray(request.merchantCapabilities) || request.merchantCapabilities.length === 0) {
              throw new TypeError('At least one merchant capability must be provided.');
            }
            request.merchantCapabilities.forEach(function (capability) {
              if (CAPABILITIES.indexOf(capability) < 0) throw new TypeError('"' + capability + '" is not a valid merchant capability.');
            });
            var total = validateLineItem(request.total, 'total');
            if (Number(total.amount) < 0) throw new TypeError('Total amount must not be negative.');
            var lineItems = (request.lineItems || []).map(function (item) { return validateLineItem(item, 'lineItems'); });
            return { total: total, lineItems: lineItems };
          }
          function fire(session, type, properties) {
            var event = new Event(type);
            Object.keys(properties || {}).forEach(function (key) {
              Object.defineProperty(event, key, { value: properties[key], enumerable: true });
            });
            var handler = session['on' + type];
            if (typeof handler === 'function') {
              try { handler.call(session, event); } catch (error) { console.error(error); }
            }
            session.dispatchEvent(event);
          }
          function money(amount, currency) {
            try {
              return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency }).format(Number(amount));
            } catch (e) {
              return amount + ' ' + currency;
            }
          }
          function sandboxContact(fields) {
            var contact = {
              givenName: 'Sandbox', familyName: 'Payer', addressLines: ['1 Sandbox Way'], locality: 'Cupertino',
              administrativeArea: 'CA', postalCode: '95014', country: 'United States', countryCode: 'US',
              subLocality: '', subAdministrativeArea: ''
            };
            if (fields.indexOf('email') >= 0) contact.emailAddress = 'payer@example.com';
            if (fields.indexOf('phone') >= 0) contact.phoneNumber = '+14085550100';
            return contact;
          }
          function post(path, body) {
            return fetch(GATEWAY + path, {
              method: 'POST', mode: 'cors', credentials: 'omit', cache: 'no-store',
              headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body)
            }).then(function (response) {
              return response.json().catch(function () { return {}; }).then(function (json) {
                if (response.ok) return json;
                var explanation = json && json.error && json.error.explanation;
                throw new Error(explanation || 'The sandbox answered ' + response.status);
              });
            });
          }

          var CSS = [
            '.apsbx-backdrop{position:fixed;top:0;right:0;bottom:0;left:0;z-index:2147483647;display:flex;align-items:center;',
            'justify-content:center;background:rgba(0,0,0,.5);font:16px/1.4 -apple-system,system-ui,"Segoe UI",Roboto,Arial,sans-serif}',
            '.apsbx-sheet{box-sizing:border-box;width:min(92vw,380px);max-height:92vh;overflow:auto;background:#fff;color:#1d1d1f;',
            'border-radius:14px;padding:20px;box-shadow:0 10px 40px rgba(0,0,0,.35);text-align:left}',
            '.apsbx-sheet *{box-sizing:border-box;font:inherit;color:inherit;letter-spacing:normal;text-transform:none}',
            '.apsbx-title{margin:0 0 4px;font-size:20px;font-weight:600}',
            '.apsbx-note{margin:0 0 14px;font-size:13px;color:#515154}',
            '.apsbx-rows{display:grid;grid-template-columns:1fr auto;margin:0 0 12px;padding:0}',
            '.apsbx-rows dt,.apsbx-rows dd{margin:0;padding:6px 0;border-bottom:1px solid #d2d2d7}',
            '.apsbx-rows dt{color:#515154;padding-right:12px}.apsbx-rows dd{text-align:right}',
            '.apsbx-rows .apsbx-total{font-weight:600;color:#1d1d1f}',
            '.apsbx-cards{border:0;margin:0 0 12px;padding:0}.apsbx-cards legend{padding:0;margin:0 0 6px;font-weight:600}',
            '.apsbx-cards label{display:flex;align-items:center;gap:8px;padding:4px 0;cursor:pointer}',
            '.apsbx-status{min-height:1.4em;margin:0 0 12px;font-size:14px}.apsbx-error{color:#b00020}',
            '.apsbx-actions{display:flex;gap:10px}',
            '.apsbx-actions button{flex:1;min-height:44px;border-radius:10px;border:1px solid #1d1d1f;cursor:pointer;font-weight:600}',
            '.apsbx-cancel{background:#fff;color:#1d1d1f}.apsbx-pay{background:#000;color:#fff}',
            '.apsbx-actions button:disabled{cursor:not-allowed;background:#e8e8ed;color:#515154;border-color:#8e8e93}',
            '.apsbx-sheet :focus-visible{outline:3px solid #0066cc;outline-offset:2px}'
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

          // The sheet: built on begin(), removed when the session ends.
          function Sheet(session) {
            var self = this;
            this.session = session;
            this.returnFocus = document.activeElement;
            addStyles();
            this.rows = element('dl', { 'class': 'apsbx-rows' });
            this.status = element('p', { 'class': 'apsbx-status', role: 'status', 'aria-live': 'polite' });
            this.cancelButton = element('button', { type: 'button', 'class': 'apsbx-cancel' }, ['Cancel']);
            this.payButton = element('button', { type: 'button', 'class': 'apsbx-pay', disabled: '' }, ['Pay']);
            var cards = element('fieldset', { 'class': 'apsbx-cards' }, [element('legend', {}, ['Card'])]);
            CARDS.forEach(function (card, index) {
              var radio = element('input', { type: 'radio', name: 'apsbx-card', value: card.id });
              radio.checked = index === 0;
              radio.addEventListener('change', function () { session._selectCard(card); });
              cards.appendChild(element('label', {}, [radio, card.paymentMethod.displayName]));
            });
            this.dialog = element('div', {
              'class': 'apsbx-sheet', role: 'dialog', 'aria-modal': 'true',
              'aria-labelledby': 'apsbx-title', 'aria-describedby': 'apsbx-note'
            }, [
              element('h2', { id: 'apsbx-title', 'class': 'apsbx-title' }, ['Apple Pay']),
              element('p', { id: 'apsbx-note', 'class': 'apsbx-note' }, ['Sandbox: test cards only, nothing is charged.']),
              this.rows, cards, this.status,
              element('div', { 'class': 'apsbx-actions' }, [this.cancelButton, this.payButton])
            ]);
            this.root = element('div', { 'class': 'apsbx-backdrop' }, [this.dialog]);
            this.cancelButton.addEventListener('click', function () { session._cancel(); });
            this.payButton.addEventListener('click', function () { session._pay(); });
            this.root.addEventListener('keydown', function (event) { self.onKey(event); });
            document.body.appendChild(this.root);
            this.render();
            var first = this.dialog.querySelector('input:checked') || this.cancelButton;
            first.focus();
          }
          Sheet.prototype.render = function () {
            var session = this.session;
            var currency = session._request.currencyCode;
            var rows = [['Merchant', session._merchantName || session._summary.total.label]];
            session._summary.lineItems.forEach(function (item) { rows.push([item.label, money(item.amount, currency)]); });
            rows.push(['Total', money(session._summary.total.amount, currency)]);
            while (this.rows.firstChild) this.rows.removeChild(this.rows.firstChild);
            var list = this.rows;
            rows.forEach(function (row, index) {
              var attributes = index === rows.length - 1 ? { 'class': 'apsbx-total' } : {};
              list.appendChild(element('dt', attributes, [row[0]]));
              list.appendChild(element('dd', attributes, [row[1]]));
            });
          };
          Sheet.prototype.say = function (text, isError) {
            this.status.textContent = text;
            this.status.className = isError ? 'apsbx-status apsbx-error' : 'apsbx-status';
          };
          Sheet.prototype.payable = function (enabled) {
            if (enabled) this.payButton.removeAttribute('disabled'); else this.payButton.setAttribute('disabled', '');
          };
          Sheet.prototype.onKey = function (event) {
            if (event.key === 'Escape') {
              event.preventDefault();
              this.session._cancel();
              return;
            }
            if (event.key !== 'Tab') return;
            var focusable = Array.prototype.filter.call(
              this.dialog.querySelectorAll('button, input'),
              function (node) { return !node.disabled && (node.type !== 'radio' || node.checked); });
            if (!focusable.length) return;
            var first = focusable[0];
            var last = focusable[focusable.length - 1];
            if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
            else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
          };
          Sheet.prototype.close = function () {
            if (this.root.parentNode) this.root.parentNode.removeChild(this.root);
            if (this.returnFocus && this.returnFocus.focus) {
              try { this.returnFocus.focus(); } catch (e) { /* gone */ }
            }
          };
          // Focus may not leave the sheet while it is open.
          document.addEventListener('focusin', function (event) {
            if (active && active._sheet && active._sheet.root.parentNode && !active._sheet.dialog.contains(event.target)) {
              var target = active._sheet.dialog.querySelector('input:checked') || active._sheet.cancelButton;
              target.focus();
            }
          });

          class ApplePaySession extends EventTarget {
            constructor(version, paymentRequest) {
              super();
              if (arguments.length < 2) throw new TypeError('Not enough arguments');
              if (!ApplePaySession.supportsVersion(version)) {
                throw domError('"' + version + '" is not a supported version.', 'InvalidAccessError');
              }
              this._summary = validateRequest(paymentRequest);
              this._request = paymentRequest;
              this._version = version;
              this._state = 'created';
              this._card = CARDS[0];
              this._merchantSession = null;
              this._merchantName = null;
              this._awaitingMethod = false;
              this._sheet = null;
              this.onvalidatemerchant = null;
              this.onpaymentmethodselected = null;
              this.onpaymentauthorized = null;
              this.onshippingcontactselected = null;
              this.onshippingmethodselected = null;
              this.oncouponcodechanged = null;
              this.oncancel = null;
            }
            static canMakePayments() { return true; }
            static canMakePaymentsWithActiveCard(merchantIdentifier) { return Promise.resolve(true); }
            static openPaymentSetup(merchantIdentifier) { return Promise.resolve(true); }
            static supportsVersion(version) {
              var number = Number(version);
              return Number.isInteger(number) && number >= 1 && number <= 14;
            }
            static applePayCapabilities(merchantIdentifier) {
              return Promise.resolve({ paymentCredentialStatus: 'paymentCredentialsAvailable' });
            }

            begin() {
              if (this._state !== 'created') throw domError('The session has already begun.', 'InvalidStateError');
              // A sheet still showing why validation failed gives way to the new session.
              if (active && active._state === 'failed') active._end();
              if (active && active._state !== 'ended') throw domError('Page already has an active payment session.', 'InvalidAccessError');
              active = this;
              this._state = 'validating';
              this._sheet = new Sheet(this);
              this._sheet.say('Contacting the merchant…');
              var session = this;
              this._timer = setTimeout(function () {
                if (session._state === 'validating') session._fail('The merchant did not complete validation in time.');
              }, VALIDATION_TIMEOUT);
              setTimeout(function () {
                fire(session, 'validatemerchant', { validationURL: GATEWAY + '/sandbox/applepay/validate' });
              }, 0);
            }
            abort() {
              if (this._state === 'created' || this._state === 'ended') return;
              this._end();
            }
            completeMerchantValidation(merchantSession) {
              if (this._state !== 'validating') throw domError('The session is not waiting for merchant validation.', 'InvalidStateError');
              clearTimeout(this._timer);
              this._state = 'checking';
              var session = this;
              if (!merchantSession || typeof merchantSession !== 'object') {
                setTimeout(function () { session._fail('The merchant session is not an object.'); }, 0);
                return;
              }
              this._merchantSession = merchantSession;
              post('/sandbox/applepay/session', { merchantSession: merchantSession }).then(function (answer) {
                if (session._state !== 'checking') return;
                session._merchantName = answer.displayName;
                session._sheet.render();
                session._ready();
                session._selectCard(session._card);
              }, function (error) {
                if (session._state === 'checking') session._fail('This merchant could not be verified: ' + error.message);
              });
            }
            completePaymentMethodSelection(update, newLineItems) {
              if (update && update.label !== undefined && update.amount !== undefined) {
                update = { newTotal: update, newLineItems: newLineItems };
              }
              this._update(update);
              if (this._awaitingMethod) {
                this._awaitingMethod = false;
                if (this._state === 'ready') this._ready();
              }
            }
            completeShippingContactSelection(update, newShippingMethods, newTotal, newLineItems) {
              if (typeof update === 'number') update = { newTotal: newTotal, newLineItems: newLineItems };
              this._update(update);
            }
            completeShippingMethodSelection(update, newTotal, newLineItems) {
              if (typeof update === 'number') update = { newTotal: newTotal, newLineItems: newLineItems };
              this._update(update);
            }
            completeCouponCodeChange(update) { this._update(update); }
            completePayment(result) {
              if (this._state !== 'authorized') throw domError('The session is not waiting for a payment result.', 'InvalidStateError');
              var status = typeof result === 'number' ? result : (result && result.status);
              if (status === STATUS.STATUS_SUCCESS) {
                this._sheet.say('Done.');
                this._end();
                return;
              }
              var errors = (result && result.errors) || [];
              var detail = errors.map(function (error) { return error && error.message; }).filter(Boolean).join(' ');
              this._state = 'ready';
              this._sheet.say('Payment not completed. ' + (detail || 'Try again or cancel.'), true);
              this._sheet.payable(true);
            }

            _update(update) {
              if (!update || typeof update !== 'object' || !this._sheet) return;
              try {
                if (update.newTotal) this._summary.total = validateLineItem(update.newTotal, 'total');
                if (Array.isArray(update.newLineItems)) {
                  this._summary.lineItems = update.newLineItems.map(function (item) { return validateLineItem(item, 'lineItems'); });
                }
              } catch (error) {
                console.error(error);
              }
              this._sheet.render();
            }
            _ready() {
              this._state = 'ready';
              this._sheet.payable(!this._awaitingMethod);
              this._sheet.say(this._awaitingMethod ? 'Updating…' : 'Ready to pay with ' + this._card.paymentMethod.displayName + '.');
            }
            _selectCard(card) {
              this._card = card;
              if (this._state !== 'ready') return;
              this._awaitingMethod = typeof this.onpaymentmethodselected === 'function';
              this._ready();
              fire(this, 'paymentmethodselected', { paymentMethod: card.paymentMethod });
            }
            _pay() {
              if (this._state !== 'ready' || this._awaitingMethod) return;
              this._state = 'authorizing';
              this._sheet.payable(false);
              this._sheet.say('Processing…');
              var session = this;
              var request = this._request;
              var body = {
                merchantSession: this._merchantSession, total: this._summary.total,
                currencyCode: request.currencyCode, countryCode: request.countryCode, card: this._card.id
              };
              if (request.applicationData) body.applicationData = request.applicationData;
              post('/sandbox/applepay/payment', body).then(function (payment) {
                if (session._state !== 'authorizing') return;
                if (request.requiredBillingContactFields && request.requiredBillingContactFields.length) {
                  payment.billingContact = sandboxContact([]);
                }
                if (request.requiredShippingContactFields && request.requiredShippingContactFields.length) {
                  payment.shippingContact = sandboxContact(request.requiredShippingContactFields);
                }
                session._state = 'authorized';
                session._sheet.say('Waiting for the merchant…');
                fire(session, 'paymentauthorized', { payment: payment });
              }, function (error) {
                if (session._state !== 'authorizing') return;
                session._state = 'ready';
                session._sheet.say('Payment not completed: ' + error.message, true);
                session._sheet.payable(true);
              });
            }
            // The merchant could not be validated: Safari shows an error and cancels.
            _fail(message) {
              this._sheet.say(message, true);
              this._sheet.payable(false);
              this._state = 'failed';
              fire(this, 'cancel', { sessionError: { code: 'unknown', info: {} } });
            }
            _cancel() {
              if (this._state === 'ended') return;
              var alreadyCancelled = this._state === 'failed';
              this._end();
              if (!alreadyCancelled) fire(this, 'cancel', {});
            }
            _end() {
              clearTimeout(this._timer);
              this._state = 'ended';
              if (this._sheet) this._sheet.close();
            }
          }
          Object.keys(STATUS).forEach(function (name) {
            Object.defineProperty(ApplePaySession, name, { value: STATUS[name], enumerable: true });
            Object.defineProperty(ApplePaySession.prototype, name, { value: STATUS[name], enumerable: true });
          });
          Object.defineProperty(ApplePaySession, 'isGatewaySandbox', { value: true });
          window.ApplePaySession = ApplePaySession;

          // <apple-pay-button>: enough of Apple's element for a page to show and click it.
          if (window.customElements && !window.customElements.get('apple-pay-button')) {
            class ApplePayButton extends HTMLElement {
              connectedCallback() {
                if (!this.hasAttribute('role')) this.setAttribute('role', 'button');
                if (!this.hasAttribute('tabindex')) this.setAttribute('tabindex', '0');
                if (!this.hasAttribute('aria-label')) this.setAttribute('aria-label', 'Apple Pay');
                var light = this.getAttribute('buttonstyle') === 'white' || this.getAttribute('buttonstyle') === 'white-outline';
                var style = this.style;
                style.display = 'inline-flex';
                style.alignItems = 'center';
                style.justifyContent = 'center';
                style.boxSizing = 'border-box';
                style.minWidth = 'var(--apple-pay-button-width, 140px)';
                style.height = 'var(--apple-pay-button-height, 40px)';
                style.padding = 'var(--apple-pay-button-padding, 0 16px)';
                style.borderRadius = 'var(--apple-pay-button-border-radius, 6px)';
                style.border = '1px solid #000';
                style.background = light ? '#fff' : '#000';
                style.color = light ? '#000' : '#fff';
                style.font = '600 16px -apple-system, system-ui, sans-serif';
                style.cursor = 'pointer';
                if (!this.firstChild) this.textContent = 'Apple Pay';
                if (!this._keys) {
                  this._keys = true;
                  this.addEventListener('keydown', function (event) {
                    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); this.click(); }
                  });
                }
              }
            }
            window.customElements.define('apple-pay-button', ApplePayButton);
          }
        })();

        """#
}
