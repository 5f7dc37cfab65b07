import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readAdditionalFields, readJsonOption } from '../../helpers/body';
import { additionalFieldsCollection } from '../../helpers/fields';
import { invalidInput, readChecked } from '../../helpers/parameters';
import { checkHttpUrl } from '../../helpers/validation';
import { freeFormFields, sendFreeForm } from '../../messaging/freeForm';
import { readRecipient, recipientFields } from '../../messaging/recipient';
import type { ItemCall, OperationDefinition } from '../types';

const MEDIA_TYPES = ['audio', 'file', 'image', 'video'];

const mediaType: INodeProperties = {
	displayName: 'Media Type',
	name: 'mediaType',
	type: 'options',
	options: [
		{ name: 'Audio', value: 'audio' },
		{ name: 'File', value: 'file' },
		{ name: 'Image', value: 'image' },
		{ name: 'Video', value: 'video' },
	],
	default: 'image',
	description: 'What kind of media the URL points to',
};

const mediaUrl: INodeProperties = {
	displayName: 'Media URL',
	name: 'mediaUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://example.com/photo.jpg',
	description: 'A public http or https address the service fetches the media from',
};

const EXTRA_MEDIA_FIELD = 'Extra Media Fields (JSON)';

/** Caption, File Name and Extra Media Fields go into the media object, next to its url. */
const mediaAdditionalFields = additionalFieldsCollection([
	{
		displayName: 'Caption',
		name: 'caption',
		type: 'string',
		default: '',
		description: 'Text shown with the media (sent as caption in the media object)',
	},
	{
		displayName: EXTRA_MEDIA_FIELD,
		name: 'extraMedia',
		type: 'json',
		default: '{}',
		description: 'Fields merged into the media object as given, for fields this node does not list',
	},
	{
		displayName: 'File Name',
		name: 'fileName',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice.pdf',
		description: 'The name the recipient sees (sent as filename in the media object)',
	},
]);

function readMediaObject(context: IExecuteFunctions, itemIndex: number, url: string): IDataObject {
	const { caption, fileName, extraMedia } = readAdditionalFields(context, itemIndex);
	const media: IDataObject = {};
	if (typeof caption === 'string' && caption !== '') media.caption = caption;
	if (typeof fileName === 'string' && fileName !== '') media.filename = fileName;
	return { ...media, ...readJsonOption(context, itemIndex, EXTRA_MEDIA_FIELD, extraMedia), url };
}

export const sendMedia: OperationDefinition = {
	value: 'sendMedia',
	name: 'Send Media',
	action: 'Send an image, video, audio or file',
	description: "Send an image, video, audio or file by URL, inside the customer's 24-hour window",
	properties: [...recipientFields, mediaType, mediaUrl, ...freeFormFields(mediaAdditionalFields)],
	async execute(this: IExecuteFunctions, item: ItemCall) {
		const { itemIndex } = item;
		const to = readRecipient(this, itemIndex);
		const type = this.getNodeParameter(mediaType.name, itemIndex) as string;
		if (!MEDIA_TYPES.includes(type)) {
			throw invalidInput(this, itemIndex, mediaType.displayName, type, `expected one of ${MEDIA_TYPES.join(', ')}`);
		}
		const url = readChecked(this, itemIndex, mediaUrl, checkHttpUrl);
		const payload: IDataObject = { message_type: type, [type]: readMediaObject(this, itemIndex, url) };
		return await sendFreeForm(this, item, to, payload);
	},
};
