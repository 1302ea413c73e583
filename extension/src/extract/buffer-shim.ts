// tesseract's worker converts BMP images with bmp-js, which needs Node's Buffer: the npm `buffer` package
// stands in for it in the browser.
export { Buffer } from 'buffer';
