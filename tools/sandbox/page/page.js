// The sandbox's page: draws the view the sandbox streams (GET /_sandbox/stream) and acts only
// through its control endpoints, showing the sandbox's own error messages beside the field they
// name. No build step and no library: everything from the sandbox is put in as text, never as HTML.

const $ = (selector, root = document) => root.querySelector(selector);
const HOUR = 3_600_000;
/** An http(s) link in a message, as the sandbox's link-preview bot finds them. */
const LINK = /https?:\/\/[^\s<>"'`]+/g;

let view;
/** Sandbox time minus this browser's time, from the latest view. */
let offsetMs = 0;
let selectedPhone;
const readAsked = new Set();
const openDetails = new Set();

/** An element with attributes (`data-*`, `aria-*`, class, ...) and children (strings become text). */
function h(tag, attributes = {}, ...children) {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes)) {
		if (value === undefined || value === null || value === false) continue;
		if (name === 'class') element.className = value;
		else element.setAttribute(name, value === true ? '' : String(value));
	}
	for (const child of children.flat()) {
		if (child === undefined || child === null || child === false) continue;
		element.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
	}
	return element;
}

const sandboxNow = () => Date.now() + offsetMs;
const when = (iso, withSeconds = false) =>
	new Date(iso).toLocaleString(undefined, {
		weekday: 'short',
		day: 'numeric',
		month: 'short',
		year: 'numeric',
		hour: '2-digit',
		minute: '2-digit',
		...(withSeconds ? { second: '2-digit' } : {}),
	});
/** A message's time as a phone shows it: the time today, the day too otherwise. */
function short(iso) {
	const date = new Date(iso);
	const sameDay = date.toDateString() === new Date(sandboxNow()).toDateString();
	return date.toLocaleString(undefined, sameDay ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}
const isoMinute = (ms) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00Z');
const nameOf = (conversation) => conversation?.fields.first_name ?? conversation?.fields.name ?? conversation?.phone ?? '';
const json = (value) => JSON.stringify(value, null, 2);

async function call(method, path, body) {
	const response = await fetch(path, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let data;
	try {
		data = text ? JSON.parse(text) : undefined;
	} catch {
		data = text;
	}
	return { ok: response.ok, status: response.status, data };
}

function toast(message, isError = false) {
	const box = $('#toast');
	box.textContent = message;
	box.dataset.error = isError ? 'true' : 'false';
	box.hidden = false;
	clearTimeout(toast.timer);
	toast.timer = setTimeout(() => (box.hidden = true), isError ? 8000 : 2500);
}

const errorText = (response) => response.data?.error?.message ?? `The sandbox answered HTTP ${response.status}.`;

/** A button's action that changes something: its error goes to the toast (a list has no field). */
async function act(method, path, body, done) {
	const response = await call(method, path, body);
	if (!response.ok) toast(errorText(response), true);
	else if (done) toast(done);
	return response;
}

// ---- forms -----------------------------------------------------------------------------

/**
 * The form's named fields as the control endpoint takes them: empty ones left out, but for a
 * required one, which goes as it is so that the sandbox refuses it by name; disabled ones never.
 */
function formBody(form) {
	const body = {};
	for (const field of form.querySelectorAll('[name]')) {
		if (field.disabled) continue;
		const value = field.value.trim();
		if (value === '' && !field.required) continue;
		body[field.name] = field.dataset.type === 'number' && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
	}
	return body;
}

function clearErrors(form) {
	for (const note of form.querySelectorAll('.field-error')) note.remove();
	for (const field of form.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
}

/** The sandbox's message beside the field it names (or under the form when it names none shown). */
function showError(form, response) {
	const field = response.data?.error?.field;
	const target = field ? form.querySelector(`[name="${CSS.escape(field)}"]`) : null;
	const note = h('p', { class: 'field-error', role: 'alert', 'data-field': field ?? '' }, errorText(response));
	if (target && target.type !== 'hidden') {
		target.setAttribute('aria-invalid', 'true');
		(target.closest('.field') ?? target.parentElement).append(note);
	} else {
		form.querySelector('button[type=submit]').before(note);
	}
}

const AFTER_SUBMIT = {
	compose(form, data) {
		form.elements.text.value = '';
		selectedPhone = data.from;
		return 'Sent as the customer';
	},
	'event-add'(form) {
		form.elements.description.value = '';
		form.elements.time.value = '';
		return 'Event added';
	},
	'event-edit'(form) {
		form.hidden = true;
		return 'Event changed';
	},
	'anomaly-add'(form) {
		form.elements.description.value = '';
		form.elements.time.value = '';
		return 'Anomaly added';
	},
	'fault-add'() {
		return 'Fault switched on';
	},
};

document.addEventListener('submit', async (event) => {
	const form = event.target;
	if (!form.dataset.path) return;
	event.preventDefault();
	clearErrors(form);
	const body = formBody(form);
	const path = form.dataset.path.replace(/\{(\w+)\}/g, (_, name) => {
		const value = body[name] ?? '';
		delete body[name];
		return encodeURIComponent(value);
	});
	const button = form.querySelector('button[type=submit]');
	button.disabled = true;
	try {
		const response = await call(form.dataset.method ?? 'POST', path, body);
		if (!response.ok) {
			showError(form, response);
			return;
		}
		toast(AFTER_SUBMIT[form.id]?.(form, response.data) ?? 'Done');
		fillDefaults();
		if (view) render(view);
	} finally {
		button.disabled = false;
	}
});

/** Time fields start at the sandbox's now (to the minute). */
function fillDefaults() {
	for (const input of document.querySelectorAll('input[data-default=now]')) {
		if (input.value === '' && document.activeElement !== input) input.value = isoMinute(sandboxNow());
	}
}

// ---- buttons ---------------------------------------------------------------------------

const ACTIONS = {
	select(button) {
		selectedPhone = button.dataset.phone;
		$('#compose-from').value = selectedPhone;
		render(view);
	},
	repeat: (button) => act('POST', '/_sandbox/webhooks/repeat', { deliveryId: Number(button.dataset.delivery) }, 'Delivered again'),
	'event-remove': (button) => act('DELETE', `/_sandbox/events/${encodeURIComponent(button.dataset.seed)}`, undefined, 'Event removed'),
	'event-backdate': (button) =>
		act('PATCH', `/_sandbox/events/${encodeURIComponent(button.dataset.seed)}`, { time: new Date(Date.parse(button.dataset.time) - HOUR).toISOString() }, 'Event back-dated one hour'),
	'event-edit'(button) {
		const event = view.locations.flatMap((l) => l.events).find((e) => e.seed_id === button.dataset.seed);
		const form = $('#event-edit');
		clearErrors(form);
		form.elements.seed_id.value = event.seed_id;
		form.elements.location.value = event.location;
		form.elements.time.value = event.time;
		form.elements.description.value = event.description;
		form.hidden = false;
		form.elements.time.focus();
	},
	'anomaly-remove': (button) => act('DELETE', `/_sandbox/anomalies/${encodeURIComponent(button.dataset.anomaly)}`, undefined, 'Anomaly removed'),
	'fault-remove': (button) => act('DELETE', `/_sandbox/faults/${encodeURIComponent(button.dataset.fault)}`, undefined, 'Fault switched off'),
	step: (button) => startStep(button),
};

document.addEventListener('click', async (event) => {
	const button = event.target.closest('button');
	if (!button) return;
	if (button.dataset.act) return ACTIONS[button.dataset.act]?.(button);
	if (button.dataset.tab) return showTab(button.dataset.tab);
	if (button.dataset.advance) return act('POST', '/_sandbox/clock', { advanceMs: Number(button.dataset.advance) });
	if (button.dataset.cancel !== undefined) button.closest('form').hidden = true;
	if (button.id === 'reset' && confirm(`Reset the sandbox? Every message, event, timeline and request it holds is forgotten, and the demo world starts again.${view?.tour ? `\n\n${view.tour.reset}` : ''}`)) {
		readAsked.clear();
		selectedPhone = undefined;
		startedSteps.clear();
		stepErrors.clear();
		button.disabled = true;
		try {
			await act('POST', '/_sandbox/reset', undefined, 'The sandbox and the demo start afresh');
		} finally {
			button.disabled = false;
		}
	}
});

// ---- start here -------------------------------------------------------------------------

/** The steps started from this page: step id → when (this browser's clock); and why one could not start. */
const startedSteps = new Map();
const stepErrors = new Map();

/** A step of the tour: one control call; then the phone that shows what happens. */
async function startStep(button) {
	const step = view.tour.steps.find((s) => s.id === button.dataset.step);
	button.disabled = true;
	try {
		const response = await call('POST', `/_sandbox/tour/${encodeURIComponent(step.id)}`);
		if (!response.ok) {
			stepErrors.set(step.id, errorText(response));
			render(view);
			return;
		}
		stepErrors.delete(step.id);
		toast(response.data.started);
		startedSteps.set(step.id, Date.now());
		selectedPhone = step.phone;
		$('#compose-from').value = step.phone;
		showTab('phone');
		// one view at a time (a phone's width): the phone below the steps comes into sight
		if ($('nav.tabs').offsetParent !== null) $('#phone').scrollIntoView({ block: 'start' });
	} finally {
		button.disabled = false;
	}
}

function renderStart() {
	const tour = view.tour;
	$('#start').hidden = !tour;
	if (!tour) return;
	$('#steps').replaceChildren(
		...tour.steps.map((step) => {
			const started = startedSteps.get(step.id);
			const phone = view.conversations.find((c) => c.phone === step.phone);
			return h(
				'li',
				{ 'data-step': step.id },
				h('button', { type: 'button', class: 'small', 'data-act': 'step', 'data-step': step.id }, step.label),
				h('p', { class: 'muted' }, step.happens),
				stepErrors.has(step.id)
					? h('p', { class: 'field-error', role: 'alert' }, stepErrors.get(step.id))
					: started
						? h('p', { class: 'started' }, `Started at ${new Date(started).toLocaleTimeString()}: look at ${nameOf(phone) || step.phone}'s phone.`)
						: null,
			);
		}),
	);
}

document.addEventListener('toggle', (event) => {
	const id = event.target.dataset?.requestId;
	if (id) event.target.open ? openDetails.add(id) : openDetails.delete(id);
}, true);

function showTab(name) {
	document.body.dataset.tab = name;
	for (const tab of document.querySelectorAll('[data-tab]')) tab.setAttribute('aria-selected', String(tab.dataset.tab === name));
	if (view) render(view);
}

// ---- the phone -------------------------------------------------------------------------

/** Text with its http(s) links made into links that open in a new tab (n8n's answer pages). */
function linkified(text) {
	const parts = [];
	let last = 0;
	for (const match of text.matchAll(LINK)) {
		const url = match[0].replace(/[.,;:!?)\]]+$/, '');
		parts.push(text.slice(last, match.index), h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url));
		last = match.index + url.length;
	}
	parts.push(text.slice(last));
	return h('p', { class: 'text' }, parts);
}

function content(message) {
	const request = message.request ?? {};
	switch (message.direction === 'inbound' ? 'inbound' : message.message_type) {
		case 'template':
			return [linkified(message.text ?? ''), h('span', { class: 'tag' }, `template ${message.template?.id ?? ''}`)];
		case 'text':
			return [
				linkified(message.text ?? ''),
				message.unresolved_placeholders?.length ? h('span', { class: 'tag warn' }, `not filled: ${message.unresolved_placeholders.join(', ')}`) : null,
			];
		case 'image':
			return h('figure', {}, h('img', { src: request.image?.url, alt: request.image?.caption ?? 'image' }), request.image?.caption ? h('figcaption', {}, request.image.caption) : null);
		case 'video':
		case 'audio':
		case 'file': {
			const media = request[message.message_type] ?? {};
			return [h('p', { class: 'text' }, `${message.message_type}: `, h('a', { href: media.url, target: '_blank', rel: 'noopener noreferrer' }, media.filename ?? media.url)), media.caption ? h('p', { class: 'text' }, media.caption) : null];
		}
		case 'location': {
			const place = request.location ?? {};
			const map = `https://www.openstreetmap.org/?mlat=${place.latitude}&mlon=${place.longitude}#map=15/${place.latitude}/${place.longitude}`;
			return h('div', { class: 'place' }, h('strong', {}, `📍 ${place.name ?? 'Location'}`), place.address ? h('p', { class: 'text' }, place.address) : null, h('a', { href: map, target: '_blank', rel: 'noopener noreferrer' }, `${place.latitude}, ${place.longitude}`));
		}
		case 'custom':
			return [h('span', { class: 'tag' }, 'custom'), h('pre', {}, json(request.custom))];
		default:
			return linkified(message.text ?? '');
	}
}

const STATUS_MARKS = { sent: '✓', delivered: '✓✓', read: '✓✓' };

/** A webhook delivery's outcome in a word: its status, or why there is none (yet). */
function deliveryAnswer(delivery) {
	if (delivery.status) return String(delivery.status);
	if (!delivery.finishedAt) return 'sending…';
	return delivery.url ? 'failed' : 'no webhook set';
}

function bubble(message) {
	const outbound = message.direction === 'outbound';
	const meta = [h('time', { datetime: message.created_at }, short(message.created_at))];
	if (outbound) meta.push(h('span', { class: 'status', title: `status ${message.status}` }, `${STATUS_MARKS[message.status] ?? ''} ${message.status}`));
	else {
		const sent = view.deliveries.filter((d) => d.eventType === 'message.inbound' && d.payload.message_id === message.message_id).sort((a, b) => a.id - b.id);
		const answers = sent.map(deliveryAnswer).join(', ');
		const said = message.history ? 'written before n8n listened' : sent.length ? `to n8n: ${answers}` : 'to n8n: sending…';
		meta.push(h('span', { class: 'delivery', title: sent.at(-1)?.error ?? '' }, said));
		if (sent.length) meta.push(h('button', { type: 'button', class: 'small quiet', 'data-act': 'repeat', 'data-delivery': sent[0].id, title: 'Send the same message.inbound again, as a service that delivers at least once may' }, 'Deliver again'));
	}
	return h(
		'li',
		{ class: `message ${outbound ? 'from-business' : 'from-customer'}`, 'data-message-id': message.message_id, 'data-status': message.status, 'data-type': message.message_type },
		content(message),
		h('div', { class: 'meta' }, meta),
	);
}

function windowText(window) {
	if (window.open && Date.parse(window.closesAt) > sandboxNow()) return { open: true, text: `24-hour window open until ${when(window.closesAt)}` };
	return { open: false, text: '24-hour window closed: only templates reach this number' };
}

function renderPhone() {
	const conversations = view.conversations;
	if (!conversations.some((c) => c.phone === selectedPhone)) selectedPhone = conversations[0]?.phone;
	const selected = conversations.find((c) => c.phone === selectedPhone);
	const from = $('#compose-from');
	if (!from.value && selected && document.activeElement !== from) from.value = selected.phone;

	$('#conversations').replaceChildren(
		...conversations.map((c) => {
			const unread = c.messages.filter((m) => m.direction === 'outbound' && m.status !== 'read').length;
			const last = c.messages.at(-1);
			return h(
				'li',
				{},
				h(
					'button',
					{ type: 'button', 'data-act': 'select', 'data-phone': c.phone, 'aria-current': c.phone === selectedPhone ? 'true' : undefined },
					h('strong', {}, nameOf(c)),
					unread ? h('span', { class: 'badge', title: `${unread} not read` }, unread) : null,
					h('span', { class: 'muted' }, c.phone),
					h('span', { class: 'preview' }, last ? (last.text ?? last.message_type) : 'no messages'),
				),
			);
		}),
	);
	$('#contact-names').replaceChildren(...conversations.flatMap((c) => [h('option', { value: c.phone }, nameOf(c)), c.fields.first_name ? h('option', { value: c.fields.first_name }, c.phone) : null]).filter(Boolean));

	$('#chat-name').textContent = selected ? nameOf(selected) : 'No conversation yet';
	$('#chat-number').textContent = selected && nameOf(selected) !== selected.phone ? selected.phone : '';
	const window = selected ? windowText(selected.window) : { open: false, text: '' };
	const windowBox = $('#chat-window');
	windowBox.textContent = window.text;
	windowBox.dataset.open = String(window.open);

	const list = $('#messages');
	const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 24;
	list.replaceChildren(...(selected?.messages ?? []).map(bubble));
	if (atBottom) list.scrollTop = list.scrollHeight;

	const hook = view.webhook;
	$('#webhook-note').textContent = hook.url
		? `Send posts message.inbound to ${hook.url}${hook.headerNames.length ? ` with ${hook.headerNames.join(', ')}` : ''}, as the service would.`
		: 'No webhook set: what you write is stored, and nothing is sent to n8n.';
	readWhatIsShown(selected);
}

/** A phone with read receipts on reads what it shows: each delivered message becomes `read` (a message.status webhook). */
function readWhatIsShown(selected) {
	if (!selected || !$('#receipts').checked || document.visibilityState !== 'visible' || $('#phone').offsetParent === null) return;
	for (const message of selected.messages) {
		if (message.direction !== 'outbound' || message.status !== 'delivered' || readAsked.has(message.message_id)) continue;
		readAsked.add(message.message_id);
		void call('POST', '/_sandbox/read', { message_id: message.message_id });
	}
}

$('#receipts').addEventListener('change', () => view && render(view));

document.addEventListener('visibilitychange', () => view && render(view));

// ---- the timeline ----------------------------------------------------------------------

function travellerTime(traveller) {
	if (traveller.paused) return traveller.currentTime;
	return new Date(Date.parse(traveller.currentTime) + (Date.now() - view.receivedAt)).toISOString();
}

function renderTimeline() {
	const timelinesById = new Map(view.worlds.flatMap((w) => w.timelines).map((t) => [t.timeline_id, t]));
	$('#travellers').replaceChildren(
		...(view.worlds.length
			? view.worlds.map(({ traveller: t }) =>
					h(
						'li',
						{ 'data-key-index': t.keyIndex },
						h('strong', {}, `Timeline key ${t.keyIndex + 1}:`),
						h('time', { class: 'traveller-time', 'data-key-index': t.keyIndex }, when(travellerTime(t), true)),
						` at ${t.location}`,
						h('span', { class: `tag ${t.paused ? 'warn' : ''}` }, t.paused ? 'paused' : 'running'),
						t.timelineId ? h('span', { class: 'muted' }, ` in ${timelinesById.get(t.timelineId)?.name ?? t.timelineId}`) : null,
					),
				)
			: [h('li', { class: 'muted' }, 'No timeline key has made a request yet.')]),
	);

	$('#locations').replaceChildren(
		...(view.locations.length ? [] : [h('p', { class: 'muted' }, 'No event at any location yet.')]),
		...view.locations.map((place) =>
			h(
				'div',
				{ class: 'card', 'data-location': place.location },
				h('h4', {}, place.location),
				h(
					'ul',
					{ class: 'plain rows' },
					place.events.map((e) =>
						h(
							'li',
							{ 'data-seed-id': e.seed_id, 'data-event-id': e.event_id },
							h('time', { datetime: e.time }, short(e.time)),
							h('span', {}, e.description || '(no description)'),
							e.seed_id
								? h(
										'span',
										{ class: 'buttons' },
										h('button', { type: 'button', class: 'small quiet', 'data-act': 'event-backdate', 'data-seed': e.seed_id, 'data-time': e.time, title: 'Move it one hour earlier, as time travel would' }, '−1 h'),
										h('button', { type: 'button', class: 'small quiet', 'data-act': 'event-edit', 'data-seed': e.seed_id }, 'Change'),
										h('button', { type: 'button', class: 'small quiet', 'data-act': 'event-remove', 'data-seed': e.seed_id }, 'Remove'),
									)
								: h('span', { class: 'muted' }, `in timeline ${timelinesById.get(e.timeline_id)?.name ?? e.timeline_id}`),
						),
					),
				),
			),
		),
	);
	$('#location-names').replaceChildren(...view.locations.map((l) => h('option', { value: l.location })));

	const timelines = [...timelinesById.values()];
	$('#timelines').replaceChildren(
		...(timelines.length ? [] : [h('p', { class: 'muted' }, 'No timeline yet.')]),
		...timelines.map((t) =>
			h(
				'div',
				{ class: 'card', 'data-timeline-id': t.timeline_id },
				h('h4', {}, t.name, ' ', h('code', { class: 'muted' }, t.timeline_id)),
				t.description ? h('p', { class: 'muted' }, t.description) : null,
				h('p', { class: 'muted' }, `${t.anchors} anchor(s), ${t.items} item(s), ${t.events.length} event(s)`),
				h(
					'ul',
					{ class: 'plain rows' },
					t.anomalies.length
						? t.anomalies.map((a) =>
								h(
									'li',
									{ 'data-anomaly-id': a.anomaly_id },
									h('span', { class: 'tag warn' }, a.type),
									h('time', { datetime: a.time }, short(a.time)),
									h('span', {}, a.description),
									h('span', { class: 'buttons' }, h('button', { type: 'button', class: 'small quiet', 'data-act': 'anomaly-remove', 'data-anomaly': a.anomaly_id }, 'Remove')),
								),
							)
						: [h('li', { class: 'muted' }, 'No anomalies.')],
				),
			),
		),
	);
	const select = $('#anomaly-timeline');
	const chosen = select.value;
	select.replaceChildren(...timelines.map((t) => h('option', { value: t.timeline_id }, `${t.name} (${t.timeline_id})`)));
	if (timelines.some((t) => t.timeline_id === chosen)) select.value = chosen;
}

// ---- faults and the log ----------------------------------------------------------------

/** A fault form's field for one kind of fault (its status) is shown, and sent, for that kind only. */
function showFaultFields() {
	const kind = $('#fault-kind').value;
	for (const field of document.querySelectorAll('#fault-add [data-for-kind]')) {
		const shown = field.dataset.forKind === kind;
		field.hidden = !shown;
		for (const input of field.querySelectorAll('[name]')) input.disabled = !shown;
	}
}
$('#fault-kind').addEventListener('change', showFaultFields);
showFaultFields();

function renderLog() {
	$('#faults').replaceChildren(
		...(view.faults.length ? [] : [h('li', { class: 'muted' }, 'No fault switched on: every call is answered as the service would.')]),
		...view.faults.map((f) =>
			h(
				'li',
				{ 'data-fault-id': f.faultId },
				h('strong', {}, f.kind === 'status' ? `HTTP ${f.status ?? 503}` : f.kind === 'delay' ? `${f.delayMs ?? 0} ms late` : f.kind === 'drop' ? 'dropped connection' : 'broken JSON'),
				` on ${f.path ?? f.pathPrefix ?? '/v1/'}${f.method ? ` (${f.method})` : ''}: fired ${f.fired} of ${f.count ?? 1}`,
				h('span', { class: 'buttons' }, h('button', { type: 'button', class: 'small quiet', 'data-act': 'fault-remove', 'data-fault': f.faultId }, 'Switch off')),
			),
		),
	);

	$('#requests').replaceChildren(
		...(view.requests.length ? [] : [h('li', { class: 'muted' }, 'No request received yet.')]),
		...view.requests.map((r) => {
			const query = new URLSearchParams(Object.entries(r.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString();
			const answer = r.responseStatus === undefined ? (r.fault === 'drop' ? 'dropped' : '…') : String(r.responseStatus);
			const failed = r.responseStatus === undefined ? r.fault === 'drop' : r.responseStatus >= 400;
			return h(
				'li',
				{ 'data-request-id': r.id, 'data-status': answer, class: failed ? 'failed' : '' },
				h(
					'details',
					{ 'data-request-id': r.id, open: openDetails.has(String(r.id)) },
					h(
						'summary',
						{},
						h('time', { datetime: r.time }, new Date(r.time).toLocaleTimeString()),
						h('code', {}, `${r.method} ${r.path}${query ? `?${query}` : ''}`),
						h('span', { class: `answer ${failed ? 'bad' : 'good'}` }, `→ ${answer}`),
						r.fault ? h('span', { class: 'tag warn' }, `fault: ${r.fault}`) : null,
					),
					h('h5', {}, 'Headers'),
					h('pre', {}, json(r.headers)),
					r.body !== null ? [h('h5', {}, 'Body'), h('pre', {}, typeof r.body === 'string' ? r.body : json(r.body))] : null,
					h('h5', {}, 'Answer'),
					h('pre', {}, r.response === undefined ? (r.fault === 'drop' ? '(connection dropped, no answer)' : '(none yet)') : typeof r.response === 'string' ? r.response : json(r.response)),
				),
			);
		}),
	);

	$('#deliveries').replaceChildren(
		...(view.deliveries.length ? [] : [h('li', { class: 'muted' }, 'No webhook delivery yet.')]),
		...view.deliveries.map((d) =>
			h(
				'li',
				{ 'data-delivery-id': d.id },
				h('time', { datetime: d.startedAt }, new Date(d.startedAt).toLocaleTimeString()),
				h('code', {}, `${d.eventType}${d.payload.status ? ` ${d.payload.status}` : ''}${d.attempt > 1 ? ` (repeat ${d.attempt - 1})` : ''}`),
				h('span', { class: `answer ${d.status ? (d.status < 400 ? 'good' : 'bad') : d.url && d.finishedAt ? 'bad' : ''}`, title: d.error ?? '' }, `→ ${deliveryAnswer(d)}`),
				h('span', { class: 'buttons' }, h('button', { type: 'button', class: 'small quiet', 'data-act': 'repeat', 'data-delivery': d.id }, 'Deliver again')),
			),
		),
	);
}

// ---- the whole page --------------------------------------------------------------------

function render(next) {
	view = next;
	renderStart();
	renderPhone();
	renderTimeline();
	renderLog();
	tick();
}

function tick() {
	if (!view) return;
	$('#now').textContent = new Date(sandboxNow()).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
	for (const time of document.querySelectorAll('.traveller-time')) {
		const world = view.worlds.find((w) => String(w.traveller.keyIndex) === time.dataset.keyIndex);
		if (world && !world.traveller.paused) time.textContent = when(travellerTime(world.traveller), true);
	}
	const selected = view.conversations.find((c) => c.phone === selectedPhone);
	if (selected) {
		const window = windowText(selected.window);
		$('#chat-window').textContent = window.text;
		$('#chat-window').dataset.open = String(window.open);
	}
}

function connect() {
	const live = $('#live');
	const stream = new EventSource('/_sandbox/stream');
	stream.addEventListener('view', (event) => {
		const next = JSON.parse(event.data);
		next.receivedAt = Date.now();
		offsetMs = Date.parse(next.now) - next.receivedAt;
		const kept = $('#kept');
		kept.textContent = next.stateFile ? `Kept across restarts in ${next.stateFile.split(/[\\/]/).pop()}` : 'In memory: forgotten when the sandbox stops';
		kept.title = next.stateFile ?? '';
		render(next);
		fillDefaults();
	});
	stream.addEventListener('open', () => {
		live.textContent = 'live';
		live.dataset.state = 'live';
	});
	// EventSource connects again by itself (after a restart of the sandbox, too).
	stream.addEventListener('error', () => {
		live.textContent = 'reconnecting…';
		live.dataset.state = 'reconnecting';
	});
}

showTab('phone');
connect();
setInterval(tick, 1000);
