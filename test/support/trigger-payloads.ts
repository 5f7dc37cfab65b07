// Sample deliveries of the messaging service's account webhook, exactly as its document
// shows them, shared by the trigger's tests.
export const inbound = {
	event_type: 'message.inbound',
	message_id: 'msg_in_1',
	conversation_id: 'conv_1',
	channel: 'chatapp',
	from: '+14155550123',
	text: 'Hello',
	timestamp: '2030-05-01T08:30:00.000Z',
};

export const status = {
	event_type: 'message.status',
	message_id: 'msg_1',
	conversation_id: 'conv_1',
	channel: 'chatapp',
	to: '+14155550123',
	status: 'delivered',
	timestamp: '2030-05-01T08:30:00.000Z',
};
