// The guestbook's server side. It runs in Qaldy's sandbox: handlers are registered on the global
// `app`, and the notes are records of the collection "entries" in the app's data API
// (`qaldy.data`), so they outlive the runtime host and every runtime host sees the same notes.
// The data API is served by the control plane; while it is down, reading notes is answered from
// the runtime host's replica (the page then has `asOf`, and says so), never older than the page's
// bookmark. When even that cannot answer, reading notes answers a calm 503 of the guestbook's own
// (the error is caught below), and signing gets Qaldy's 503 page (the error is not caught, so the
// platform answers for it).

var MAX_NAME = 80;
var MAX_MESSAGE = 500;
var SHOWN = 50;

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
  qaldy.data.create('entries', entry); // an outage here is not caught: the visitor gets a 503
  return {
    status: 200,
    json: { message: 'Thanks, ' + name + '! Your note was signed.', entry: entry }
  };
});

app.get('/api/entries', function () {
  try {
    var page = qaldy.data.list('entries', { limit: SHOWN, order: 'newest' });
    var entries = page.records.map(function (r) { return r.data; });
    return { status: 200, json: page.asOf ? { entries: entries, asOf: page.asOf } : { entries: entries } };
  } catch (e) {
    if (e.code === 'unavailable') {
      return {
        status: 503,
        headers: { 'Retry-After': '30' },
        json: { error: 'The guestbook cannot read its notes right now. Please try again in a little while.' }
      };
    }
    throw e;
  }
});

// A job the owner can schedule (e.g. "0 8 * * *") or trigger with a webhook: it writes how many
// notes the guestbook holds (up to 100) to the run's log. ctx = {runId, tick, actor, job, app, payload, json}.
app.job('digest', function (ctx) {
  var entries = qaldy.data.list('entries', { limit: 100 }).records;
  console.log('digest: ' + entries.length + ' entries (' + ctx.actor + ', tick ' + ctx.tick + ')');
  if (ctx.json && typeof ctx.json.note === 'string') {
    console.log('webhook note: ' + ctx.json.note.slice(0, 200));
  }
});
