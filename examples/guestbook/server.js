// The guestbook's server side. It runs in Qaldy's sandbox: handlers are registered on the global
// `app`, and `store` is a small per-app memory that lasts while the runtime host runs.

var MAX_NAME = 80;
var MAX_MESSAGE = 500;

function trimmed(value) {
  return typeof value === 'string' ? value.trim() : '';
}

function refuse(message) {
  return { status: 400, json: { error: message } };
}

app.post('/api/sign', function (req) {
  var input = req.json;
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    return refuse('Send JSON like {"name": "Ada", "message": "Hello!"}.');
  }
  var name = trimmed(input.name);
  var message = trimmed(input.message);
  if (name.length < 1 || name.length > MAX_NAME) {
    return refuse('Your name must be 1 to ' + MAX_NAME + ' characters.');
  }
  if (message.length < 1 || message.length > MAX_MESSAGE) {
    return refuse('Your message must be 1 to ' + MAX_MESSAGE + ' characters.');
  }
  var entry = { name: name, message: message, at: new Date().toISOString() };
  if (typeof store !== 'undefined') {
    store.push('entries', entry);
  }
  return {
    status: 200,
    json: { message: 'Thanks, ' + name + '! Your note was signed.', entry: entry }
  };
});

app.get('/api/entries', function () {
  var entries = typeof store !== 'undefined' ? store.list('entries') : [];
  return { status: 200, json: { entries: entries.reverse() } };
});

// A job the owner can schedule (e.g. "0 8 * * *") or trigger with a webhook: it writes how many
// notes the guestbook holds to the run's log. ctx = {runId, tick, actor, job, app, payload, json}.
app.job('digest', function (ctx) {
  var entries = typeof store !== 'undefined' ? store.list('entries') : [];
  console.log('digest: ' + entries.length + ' entries (' + ctx.actor + ', tick ' + ctx.tick + ')');
  if (ctx.json && typeof ctx.json.note === 'string') {
    console.log('webhook note: ' + ctx.json.note.slice(0, 200));
  }
});
