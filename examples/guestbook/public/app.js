// The guestbook's page: signs through POST /api/sign and lists notes from GET /api/entries.
// Every piece of user text goes into the page with textContent, never as HTML.
// Qaldy's data bookmark (X-Qaldy-Data-Bookmark) is kept for the tab and sent back with each request,
// so a note you just signed is never missing from the list, also while Qaldy reads from a replica.
(function () {
  'use strict';

  var form = document.getElementById('sign-form');
  var nameInput = document.getElementById('name');
  var messageInput = document.getElementById('message');
  var submit = document.getElementById('submit');
  var count = document.getElementById('count');
  var statusLine = document.getElementById('status');
  var list = document.getElementById('entries');
  var empty = document.getElementById('empty');
  var asOf = document.getElementById('as-of');
  var BOOKMARK = 'X-Qaldy-Data-Bookmark';

  function bookmark() {
    try { return sessionStorage.getItem('qaldy-data-bookmark'); } catch (e) { return null; }
  }

  function keepBookmark(response) {
    var seen = response.headers.get(BOOKMARK);
    var held = bookmark();
    if (seen && /^[0-9]{1,18}$/.test(seen) && (!held || Number(seen) > Number(held))) {
      try { sessionStorage.setItem('qaldy-data-bookmark', seen); } catch (e) { /* private mode: not kept */ }
    }
    return response;
  }

  function headers(more) {
    var all = { Accept: 'application/json' };
    var held = bookmark();
    if (held) { all[BOOKMARK] = held; }
    Object.keys(more || {}).forEach(function (k) { all[k] = more[k]; });
    return all;
  }

  function say(text, kind) {
    statusLine.textContent = text;
    statusLine.className = 'status' + (kind ? ' ' + kind : '');
  }

  function when(iso) {
    var date = new Date(iso);
    return isNaN(date.getTime()) ? '' : date.toLocaleString();
  }

  function entryElement(entry) {
    var item = document.createElement('li');
    item.className = 'entry';
    var head = document.createElement('div');
    head.className = 'entry-head';
    var name = document.createElement('strong');
    name.textContent = entry.name;
    var time = document.createElement('time');
    time.dateTime = entry.at || '';
    time.textContent = when(entry.at);
    head.appendChild(name);
    head.appendChild(time);
    var message = document.createElement('p');
    message.textContent = entry.message;
    item.appendChild(head);
    item.appendChild(message);
    return item;
  }

  function showEntries() {
    empty.hidden = list.children.length > 0;
  }

  // Reads a JSON answer; problem answers (from the app or the platform) carry error, title or detail.
  function readAnswer(response) {
    return response.text().then(function (text) {
      var data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      return { ok: response.ok, status: response.status, data: data || {} };
    });
  }

  function failure(answer) {
    if (answer.status === 401) {
      return 'Your session has ended. Reload the page to sign in again.';
    }
    return answer.data.error || answer.data.detail || answer.data.title
      || 'Something went wrong (HTTP ' + answer.status + '). Please try again.';
  }

  function loadEntries() {
    fetch('/api/entries', { headers: headers() })
      .then(keepBookmark)
      .then(readAnswer)
      .then(function (answer) {
        if (!answer.ok) {
          say(failure(answer), 'error');
          return;
        }
        list.textContent = '';
        (answer.data.entries || []).forEach(function (entry) {
          list.appendChild(entryElement(entry));
        });
        showEntries();
        asOf.hidden = !answer.data.asOf;
        asOf.textContent = answer.data.asOf
          ? 'Qaldy is answering from a copy of the notes as of ' + when(answer.data.asOf)
            + '. Notes signed elsewhere since then show up once it is back; signing waits until then.'
          : '';
      })
      .catch(function () {
        say('Could not load the notes. Check your connection and reload.', 'error');
      });
  }

  messageInput.addEventListener('input', function () {
    count.textContent = messageInput.value.length + ' / 500';
  });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var name = nameInput.value.trim();
    var message = messageInput.value.trim();
    if (!name || !message) {
      say('Please write your name and a message.', 'error');
      (name ? messageInput : nameInput).focus();
      return;
    }
    submit.disabled = true;
    say('Signing…');
    fetch('/api/sign', {
      method: 'POST',
      headers: headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ name: name, message: message })
    })
      .then(keepBookmark)
      .then(readAnswer)
      .then(function (answer) {
        if (!answer.ok) {
          say(failure(answer), 'error');
          return;
        }
        say(answer.data.message, 'ok');
        if (answer.data.entry) {
          list.insertBefore(entryElement(answer.data.entry), list.firstChild);
          showEntries();
        }
        messageInput.value = '';
        count.textContent = '0 / 500';
      })
      .catch(function () {
        say('Could not reach the guestbook. Check your connection and try again.', 'error');
      })
      .then(function () {
        submit.disabled = false;
      });
  });

  loadEntries();
}());
