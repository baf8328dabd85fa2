/******/ (() => { // webpackBootstrap
/******/ 	"use strict";
/******/ 	var __webpack_modules__ = ({
/***/ "./src/ticker.js":
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {
const HOST = 'news-headlines-api.p.rapidapi.com';
async function loadHeadlines(country = 'gb', category = 'technology') {
  const res = await fetch(`https://${HOST}/v1/headlines?country=${country}&category=${category}`, { headers: { 'x-rapidapi-host': HOST } });
  return res.json();
}
/***/ })
/******/ 	});
/******/ })()
;
