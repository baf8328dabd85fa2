import https from 'node:https';

const HOST = 'api.nasa.gov';

function getJSON(path) {
  return new Promise((resolve, reject) => {
    const req = https.request({ hostname: HOST, path, method: 'GET', headers: { Accept: 'application/json' } }, (res) => {
      let raw = '';
      res.on('data', (chunk) => (raw += chunk));
      res.on('end', () => {
        if (res.statusCode >= 400) return reject(new Error(`status ${res.statusCode}`));
        resolve(JSON.parse(raw));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

// Lambda entry point: returns NASA's astronomy picture of the day.
export const handler = async (event) => {
  const date = event.queryStringParameters?.date ?? '';
  const apod = await getJSON(`/planetary/apod?api_key=${process.env.NASA_KEY}&date=${date}`);
  return { statusCode: 200, body: JSON.stringify(apod) };
};
