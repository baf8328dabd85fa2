const http = require('https');

const options = {
	method: 'GET',
	hostname: 'news-digest.p.rapidapi.com',
	port: null,
	path: '/headlines?country=ie',
	headers: {
		'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
		'x-rapidapi-host': 'news-digest.p.rapidapi.com'
	}
};

const req = http.request(options, function (res) {
	const chunks = [];

	res.on('data', function (chunk) {
		chunks.push(chunk);
	});

	res.on('end', function () {
		const body = Buffer.concat(chunks);
		console.log(body.toString());
	});
});

req.end();
