// The AWS SDK packages, loaded when a component is built: importing them costs ~600 ms of
// start-up, which every config would otherwise pay whether it uses AWS or not. A factory awaits
// `loadAws('s3')` (or 'dynamo', 'kinesis'); the code it builds then uses `s3()` and the like.
export type S3Sdk = typeof import('@aws-sdk/client-s3');
export type DynamoSdk = typeof import('@aws-sdk/client-dynamodb');
export type KinesisSdk = typeof import('@aws-sdk/client-kinesis');
export type HttpHandlerSdk = typeof import('@smithy/node-http-handler');

interface Loaded {
  s3?: S3Sdk;
  dynamo?: DynamoSdk;
  kinesis?: KinesisSdk;
  http?: HttpHandlerSdk;
}

const loaded: Loaded = {};

const importers = {
  s3: () => import('@aws-sdk/client-s3'),
  dynamo: () => import('@aws-sdk/client-dynamodb'),
  kinesis: () => import('@aws-sdk/client-kinesis'),
  http: () => import('@smithy/node-http-handler'),
};

/** Loads the named SDK packages once. */
export async function loadAws(...names: (keyof Loaded)[]): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      if (!loaded[name]) (loaded as Record<string, unknown>)[name] = await importers[name]();
    }),
  );
}

function need<K extends keyof Loaded>(name: K): NonNullable<Loaded[K]> {
  const sdk = loaded[name];
  if (!sdk) throw new Error(`internal: the AWS SDK package '${name}' was used before loadAws('${name}')`);
  return sdk as NonNullable<Loaded[K]>;
}

export const s3 = (): S3Sdk => need('s3');
export const dynamo = (): DynamoSdk => need('dynamo');
export const kinesis = (): KinesisSdk => need('kinesis');
export const httpHandler = (): HttpHandlerSdk => need('http');
