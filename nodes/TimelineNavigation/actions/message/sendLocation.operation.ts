import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dataToSendFields, definedBelow } from '../../helpers/fields';
import { mappedFrom, optionalString, readChecked } from '../../helpers/parameters';
import { checkLatitude, checkLongitude } from '../../helpers/validation';
import { freeFormFields, sendFreeForm } from '../../messaging/freeForm';
import { readRecipient, recipientFields } from '../../messaging/send';
import type { CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

const latitude: INodeProperties = {
	displayName: 'Latitude',
	name: 'latitude',
	type: 'number',
	typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
	required: true,
	default: 0,
	description: 'From -90 (south) to 90 (north)',
};

const longitude: INodeProperties = {
	displayName: 'Longitude',
	name: 'longitude',
	type: 'number',
	typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
	required: true,
	default: 0,
	description: 'From -180 (west) to 180 (east)',
};

const placeName: INodeProperties = {
	displayName: 'Name',
	name: 'locationName',
	type: 'string',
	default: '',
	placeholder: 'e.g. Central Station',
	description: 'The name of the place. Locations are static: live location is not supported.',
};

const address: INodeProperties = {
	displayName: 'Address',
	name: 'locationAddress',
	type: 'string',
	default: '',
	placeholder: 'e.g. 1 Station Square',
	description: 'The address of the place',
};

const latitudeRef = mappedFrom(latitude, 'latitude');
const longitudeRef = mappedFrom(longitude, 'longitude');
const placeNameRef = mappedFrom(placeName, 'name');
const addressRef = mappedFrom(address, 'address');

export const sendLocation: OperationDefinition = {
	value: 'sendLocation',
	name: 'Send Location',
	action: 'Send a location',
	description: "Send a static location, inside the customer's 24-hour window",
	properties: [
		...dataToSendFields({ required: ['to', 'latitude', 'longitude'], optional: ['name', 'address'] }),
		...recipientFields,
		...definedBelow([latitude, longitude, placeName, address]),
		...freeFormFields(),
	],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const { itemIndex } = call;
		const to = readRecipient(this, itemIndex);
		const location: IDataObject = {
			latitude: readChecked(this, itemIndex, latitudeRef, checkLatitude, undefined),
			longitude: readChecked(this, itemIndex, longitudeRef, checkLongitude, undefined),
		};
		const name = optionalString(this, itemIndex, placeNameRef);
		const street = optionalString(this, itemIndex, addressRef);
		if (name !== undefined) location.name = name;
		if (street !== undefined) location.address = street;
		return await sendFreeForm(this, call, to, { message_type: 'location', location });
	},
};
