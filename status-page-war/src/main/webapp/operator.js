/*
 * Qaldy status page, operator: sign in with the status page's own account, open incidents, post
 * updates and resolve them. Every change sends the session's CSRF token in X-CSRF-Token; the
 * session itself is an HttpOnly, SameSite=Strict cookie this script never sees.
 */
'use strict';

(function () {
  var S = QaldyStatus;
  var el = S.el;
  var csrfToken = null;

  function byId(id) { return document.getElementById(id); }

  function notice(text) {
    var node = byId('notice');
    node.textContent = text || '';
    node.hidden = !text;
  }

  /** Sends JSON to the operator API; resolves with the parsed answer, rejects with a message for people. */
  function send(method, path, body) {
    var headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
    return fetch(path, {
      method: method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (response) {
      if (response.status === 204) return null;
      return response.json().catch(function () { return {}; }).then(function (json) {
        if (response.ok) return json;
        var error = new Error(json.title || ('The status page answered HTTP ' + response.status + '.'));
        error.status = response.status;
        throw error;
      });
    }, function () {
      throw new Error('The status page cannot be reached. Check your connection and try again.');
    });
  }

  function showSignIn() {
    csrfToken = null;
    byId('work').hidden = true;
    byId('signin').hidden = false;
    byId('password').value = '';
  }

  function showWork(session) {
    csrfToken = session.csrf_token;
    byId('who').textContent = session.user;
    byId('signin').hidden = true;
    byId('work').hidden = false;
    loadOpen();
  }

  /** A failed change: back to sign-in when the session is gone, else the message next to the form. */
  function failed(error, errorNode) {
    if (error.status === 401) {
      showSignIn();
      notice('Your session ended. Sign in again.');
      return;
    }
    errorNode.textContent = error.message;
  }

  function statusSelect(id, current) {
    var select = el('select', { id: id, name: 'status' });
    ['investigating', 'identified', 'monitoring', 'resolved'].forEach(function (status) {
      select.appendChild(el('option', { value: status, selected: status === current, text: S.INCIDENT_WORDS[status] }));
    });
    return select;
  }

  function incidentItem(incident, names) {
    var item = S.incidentEl(incident, names, true);
    var prefix = 'incident-' + incident.id + '-';
    var error = el('p', { 'class': 'error', role: 'alert' });
    var message = el('textarea', { id: prefix + 'message', name: 'message', rows: 3, maxlength: 5000 });
    var status = statusSelect(prefix + 'status', incident.status);
    var form = el('form', { 'class': 'form incident-form', novalidate: true }, [
      el('label', { 'for': prefix + 'status', text: 'New status' }), status,
      el('label', { 'for': prefix + 'message', text: 'Message' }), message,
      error,
      el('div', { 'class': 'buttons' }, [
        el('button', { type: 'submit', text: 'Post update' }),
        el('button', { type: 'button', 'class': 'secondary', 'data-action': 'resolve', text: 'Resolve now' })
      ])
    ]);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      error.textContent = '';
      send('POST', 'api/operator/incidents/' + incident.id + '/updates', { status: status.value, message: message.value })
        .then(function () { notice('Update posted on "' + incident.name + '".'); loadOpen(); },
          function (e) { failed(e, error); });
    });
    form.querySelector('[data-action=resolve]').addEventListener('click', function () {
      error.textContent = '';
      send('POST', 'api/operator/incidents/' + incident.id + '/resolve', { message: message.value })
        .then(function () { notice('"' + incident.name + '" is resolved.'); loadOpen(); },
          function (e) { failed(e, error); });
    });
    item.appendChild(form);
    return item;
  }

  function loadOpen() {
    S.getJson('api/v2/summary.json').then(function (summary) {
      var names = {};
      summary.components.forEach(function (c) { names[c.id] = c.name + (summary.cells.length > 1 ? ' (cell ' + c.cell + ')' : ''); });
      var list = el('ol', { id: 'open-list', 'class': 'incidents' });
      summary.incidents.forEach(function (incident) { list.appendChild(incidentItem(incident, names)); });
      byId('open-list').replaceWith(list);
      byId('none-open').hidden = summary.incidents.length > 0;
    }, function () {
      notice('The list of incidents cannot be loaded right now.');
    });
  }

  byId('signin-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var error = byId('signin-error');
    error.textContent = '';
    var user = byId('user').value.trim();
    var password = byId('password').value;
    if (!user || !password) {
      error.textContent = 'Enter the user name and the password.';
      return;
    }
    send('POST', 'api/operator/session', { user: user, password: password })
      .then(function (session) { notice(''); showWork(session); }, function (e) { error.textContent = e.message; byId('password').value = ''; });
  });

  byId('create-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var form = event.target;
    var error = byId('create-error');
    error.textContent = '';
    send('POST', 'api/operator/incidents', { name: byId('create-name').value, status: byId('create-status').value, message: byId('create-message').value })
      .then(function (incident) {
        form.reset();
        notice('Incident "' + incident.name + '" is open and shown on the status page.');
        loadOpen();
      }, function (e) { failed(e, error); });
  });

  byId('signout').addEventListener('click', function () {
    send('DELETE', 'api/operator/session').then(function () { showSignIn(); notice('You are signed out.'); },
      function () { showSignIn(); });
  });

  byId('reload').addEventListener('click', loadOpen);

  send('GET', 'api/operator/session').then(showWork, function () { showSignIn(); });
}());
