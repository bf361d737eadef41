// read only as a folder of usage_folder.ss's run (a layout file of its own)
(2,4):(4,1)
